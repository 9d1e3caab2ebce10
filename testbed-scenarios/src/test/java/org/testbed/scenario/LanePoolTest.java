package org.testbed.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LanePoolTest {

    @Test
    void reusesIdleLanesAndCreatesOnlyAsManyAsWereBusyAtOnce() {
        LanePool pool = new LanePool(new CrudJourney(new KeySpace("r", "i"), 10, 1));
        RequestStream a = pool.borrow();
        RequestStream b = pool.borrow();
        assertThat(a).isNotSameAs(b);
        pool.release(a);
        assertThat(pool.borrow()).isSameAs(a);
        assertThat(pool.lanes()).isEqualTo(2);
    }

    @Test
    void concurrentBorrowersGetDistinctLanesWithDistinctKeys() throws Exception {
        LanePool pool = new LanePool(new CrudJourney(new KeySpace("r", "i"), 10, 1));
        Set<String> firstKeys = java.util.concurrent.ConcurrentHashMap.newKeySet();
        List<Thread> threads = new ArrayList<>();
        List<RequestStream> held = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 8; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 50; i++) {
                    RequestStream lane = pool.borrow();
                    held.add(lane);
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(new HashSet<>(held)).hasSize(400);
        for (RequestStream lane : held) {
            firstKeys.add(lane.next().path());
        }
        assertThat(firstKeys).hasSize(400);
        assertThat(pool.lanes()).isEqualTo(400);
    }
}

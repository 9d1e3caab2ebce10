package org.testbed.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.testbed.item.ItemId;

class KeySpaceTest {

    @Test
    void longestPossibleKeysAreValidIds() {
        KeySpace keys = new KeySpace("r".repeat(48), "i".repeat(48));
        String longest = keys.key(Long.MAX_VALUE, 'j', Long.MAX_VALUE);
        assertThat(longest.length()).isLessThanOrEqualTo(ItemId.MAX_LENGTH);
        assertThat(ItemId.problemWith(longest)).isNull();
        assertThat(ItemId.problemWith(KeySpace.preloadKey(Integer.MAX_VALUE, Integer.MAX_VALUE))).isNull();
    }

    @Test
    void newRunIdsAreValidComponentsAndDiffer() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            String id = KeySpace.newRunId();
            assertThat(id).matches(KeySpace.COMPONENT.pattern());
            ids.add(id);
        }
        assertThat(ids.size()).isGreaterThan(40); // same second, random suffix
    }

    @Test
    void keysNeverCollideAcrossRunsInjectorsLanesKindsAndSequences() {
        // Run and injector ids chosen so that naive concatenation would collide ("a" + "1.2" vs "a.1" + "2").
        String[] runs = {"a", "a1", "a-1", "1"};
        String[] injectors = {"1", "11", "b", "1-1"};
        Set<String> seen = new HashSet<>();
        int generated = 0;
        for (String run : runs) {
            for (String injector : injectors) {
                KeySpace keys = new KeySpace(run, injector);
                for (long lane = 0; lane < 12; lane++) {
                    for (char kind : new char[] {'j', 'c'}) {
                        for (long seq = 0; seq < 12; seq++) {
                            String key = keys.key(lane, kind, seq);
                            assertThat(ItemId.isValid(key)).isTrue();
                            seen.add(key);
                            generated++;
                        }
                    }
                }
            }
        }
        for (int i = 0; i < 100; i++) {
            seen.add(KeySpace.preloadKey(100, i));
            generated++;
        }
        assertThat(seen).hasSize(generated);
    }

    @Test
    void componentsMayNotContainTheSeparatorOrLeaveTheCharset() {
        assertThatThrownBy(() -> new KeySpace("a.b", "i0")).hasMessageContaining("no dot");
        assertThatThrownBy(() -> new KeySpace("run", "x/y")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new KeySpace("", "i0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new KeySpace("r".repeat(49), "i0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new KeySpace("r", "i").key(0, '1', 0)).isInstanceOf(IllegalArgumentException.class);
    }
}

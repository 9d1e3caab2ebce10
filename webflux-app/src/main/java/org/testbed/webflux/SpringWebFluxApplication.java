package org.testbed.webflux;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.boot.web.embedded.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.MapPropertySource;
import org.testbed.config.Mode;
import org.testbed.config.TestbedConfig;
import org.testbed.server.ServerStartup;
import org.testbed.server.ServerTuning;
import org.testbed.service.ItemService;
import org.testbed.service.Metrics;
import org.testbed.store.ItemStore;
import reactor.netty.http.HttpResources;
import reactor.netty.resources.LoopResources;

/**
 * Variant {@code spring-webflux}: Spring Boot WebFlux on Reactor Netty, asynchronous only. The
 * controllers are thin adapters over testbed-service's asynchronous {@link ItemService}: each
 * request's {@code CompletableFuture} becomes a {@code Mono}, so no thread, and never an event loop,
 * waits for Memcached or the delay timer. What is measured is WebFlux's request path on Netty.
 */
@SpringBootApplication
public class SpringWebFluxApplication {
    static final String FAMILY = "spring-webflux";
    private static final Logger log = LoggerFactory.getLogger(SpringWebFluxApplication.class);

    /** Reactor Netty's own setting for its event loops, read once when its resources are made. */
    static final String EVENT_LOOPS_PROPERTY = "reactor.netty.ioWorkerCount";

    public static void main(String[] args) {
        // An event loop offers only async, so that is this variant's default mode.
        TestbedConfig config = TestbedConfig.fromCommandLine(FAMILY, args, Mode.ASYNC);
        ServerStartup.prepare(FAMILY, config, Set.of(Mode.ASYNC));
        newServer(config);
    }

    /**
     * Starts the application and returns once it listens; the ready line is printed by then. The
     * testbed configuration is the highest-precedence property source, so it decides whatever
     * {@code application.properties} or {@code -Dserver.port} say.
     */
    public static ConfigurableApplicationContext newServer(TestbedConfig config) {
        oneEventLoopPerCpu();
        DroppedErrors.logConnectionErrorsAtDebug();
        SpringApplication application = new SpringApplication(SpringWebFluxApplication.class);
        application.addInitializers(context -> {
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("testbed", springProperties(config)));
            context.getBeanFactory().registerSingleton("testbedConfig", config);
        });
        application.addListeners((WebServerInitializedEvent event) -> {
            log.info("{}: {} event loop(s), transport {}", FAMILY, System.getProperty(EVENT_LOOPS_PROPERTY), transport());
            ServerStartup.printReady(variantName(config), config, event.getWebServer().getPort());
        });
        return application.run();
    }

    /**
     * {@code epoll} (Linux, x86_64 or aarch64, from the native libraries this jar ships), {@code kqueue}
     * (macOS) or {@code nio}: the kind of event loop the server's connections run on.
     */
    static String transport() {
        String eventLoop = HttpResources.get().onServer(LoopResources.DEFAULT_NATIVE).next().getClass().getSimpleName();
        return eventLoop.replace("EventLoop", "").toLowerCase(Locale.ROOT);
    }

    /**
     * Event loops = CPUs the JVM may use, as the vertx variant runs (TechEmpower's setting), where
     * Reactor Netty would make at least four: on a server pinned to one CPU, four loops would only
     * take turns on it. {@code -Dreactor.netty.ioWorkerCount} still decides when given.
     */
    static void oneEventLoopPerCpu() {
        if (System.getProperty(EVENT_LOOPS_PROPERTY) == null) {
            System.setProperty(EVENT_LOOPS_PROPERTY, Integer.toString(ServerTuning.cores()));
        }
    }

    /** The name health answers and the ready line prints: {@code spring-webflux}. */
    static String variantName(TestbedConfig config) {
        return ServerStartup.variantName(FAMILY, config.mode(), Mode.ASYNC);
    }

    /** The settings Spring Boot itself must know; Reactor Netty is tuned in {@link #nettyLikeTheOthers}. */
    static Map<String, Object> springProperties(TestbedConfig config) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("server.address", config.host());
        properties.put("server.port", config.port());
        return properties;
    }

    /** Listen backlog, timeouts, gzip, TLS and the refusals below the application: {@link ReactorNettyTuning}. */
    @Bean
    WebServerFactoryCustomizer<NettyReactiveWebServerFactory> nettyLikeTheOthers(TestbedConfig config) {
        return factory -> factory.addServerCustomizers(new ReactorNettyTuning(config));
    }

    /** {@code TESTBED_METRICS}: off, a no-op, and {@link RequestMetricsFilter} records nothing. */
    @Bean
    Metrics metrics(TestbedConfig config) {
        return Metrics.of(config);
    }

    @Bean(destroyMethod = "close")
    ItemStore itemStore(TestbedConfig config) {
        return ServerStartup.connectStore(config);
    }

    @Bean
    ItemService itemService(ItemStore store, TestbedConfig config, Metrics metrics) {
        return ItemService.of(store, variantName(config), config, metrics);
    }

    @Bean
    ExchangeAnswers exchangeAnswers(TestbedConfig config) {
        return new ExchangeAnswers(config.gzip());
    }

    @Bean
    RequestMetricsFilter requestMetrics(Metrics metrics) {
        return new RequestMetricsFilter(metrics);
    }

    @Bean
    ContractRoutesFilter contractRoutesOnly(ExchangeAnswers answers) {
        return new ContractRoutesFilter(answers);
    }

    @Bean
    ProblemExceptionHandler problemBodies(ExchangeAnswers answers) {
        return new ProblemExceptionHandler(answers);
    }
}

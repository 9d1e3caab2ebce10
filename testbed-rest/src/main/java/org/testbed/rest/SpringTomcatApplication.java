package org.testbed.rest;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.apache.catalina.core.StandardHost;
import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.env.MapPropertySource;
import org.testbed.config.Mode;
import org.testbed.config.TestbedConfig;
import org.testbed.server.ServerStartup;
import org.testbed.containers.tomcat.ProblemErrorReportValve;
import org.testbed.containers.tomcat.RequestMetricsFilter;
import org.testbed.containers.tomcat.TomcatConnectors;
import org.testbed.service.ItemService;
import org.testbed.service.Metrics;
import org.testbed.store.ItemStore;

/**
 * Variants {@code spring-tomcat} (platform worker threads) and {@code spring-tomcat-virtual}
 * (a virtual thread per request, JDK 21+): Spring Boot MVC on embedded Tomcat. Controllers are thin
 * adapters over testbed-service's {@link ItemService}; what is measured is Spring MVC's request path.
 */
@SpringBootApplication
public class SpringTomcatApplication {
    static final String FAMILY = "spring-tomcat";

    public static void main(String[] args) {
        TestbedConfig config = TestbedConfig.fromCommandLine(FAMILY, args);
        ServerStartup.prepare(FAMILY, config, Set.of(Mode.SYNC, Mode.VIRTUAL));
        newServer(config);
    }

    /**
     * Starts the application and returns once it listens; the ready line is printed by then. The
     * testbed configuration is the highest-precedence property source, so it decides whatever
     * {@code application.properties} or {@code -Dserver.port} say.
     */
    public static ConfigurableApplicationContext newServer(TestbedConfig config) {
        SpringApplication application = new SpringApplication(SpringTomcatApplication.class);
        application.addInitializers(context -> {
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("testbed", springProperties(config)));
            context.getBeanFactory().registerSingleton("testbedConfig", config);
        });
        application.addListeners((WebServerInitializedEvent event) -> ServerStartup.printReady(
                variantName(config), config, event.getWebServer().getPort()));
        return application.run();
    }

    static String variantName(TestbedConfig config) {
        return ServerStartup.variantName(FAMILY, config.mode(), Mode.SYNC);
    }

    /** The settings Spring Boot itself must know; the connector is tuned in {@link #tomcatLikeTheOthers}. */
    static Map<String, Object> springProperties(TestbedConfig config) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("server.address", config.host());
        properties.put("server.port", config.port());
        properties.put("spring.threads.virtual.enabled", config.mode() == Mode.VIRTUAL);
        return properties;
    }

    /**
     * The connector gets exactly the settings of the servlet-tomcat variants (threads, keep-alive
     * without Tomcat's 100-request cap, idle timeouts, backlog, {@code Server} header, TLS), so the
     * two differ only by Spring MVC; and Tomcat's own error pages become problem bodies.
     */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> tomcatLikeTheOthers(TestbedConfig config) {
        return factory -> {
            factory.addConnectorCustomizers(connector -> TomcatConnectors.configure(connector, config));
            factory.addContextCustomizers(context -> ((StandardHost) context.getParent())
                    .setErrorReportValveClass(ProblemErrorReportValve.class.getName()));
        };
    }

    @Bean
    FilterRegistrationBean<ContractMethodsFilter> contractMethodsOnly() {
        return new FilterRegistrationBean<>(new ContractMethodsFilter());
    }

    /** {@code TESTBED_METRICS}: off, a no-op and no filter. */
    @Bean
    Metrics metrics(TestbedConfig config) {
        return Metrics.of(config);
    }

    /** Times every request from the first filter on, as the servlet-tomcat variants' filter does. */
    @Bean
    FilterRegistrationBean<RequestMetricsFilter> requestMetrics(Metrics metrics) {
        FilterRegistrationBean<RequestMetricsFilter> registration = new FilterRegistrationBean<>(new RequestMetricsFilter(metrics));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        registration.setEnabled(metrics.enabled());
        return registration;
    }

    @Bean(destroyMethod = "close")
    ItemStore itemStore(TestbedConfig config) {
        return ServerStartup.connectStore(config);
    }

    @Bean
    ItemService itemService(ItemStore store, TestbedConfig config, Metrics metrics) {
        return ItemService.of(store, variantName(config), config, metrics);
    }
}

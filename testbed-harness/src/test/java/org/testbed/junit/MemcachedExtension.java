package org.testbed.junit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.testbed.memcached.MemcachedProcess;

/**
 * Starts a real {@code memcached} on a free loopback port for a test class and injects the
 * {@link MemcachedProcess} into constructors, lifecycle and test methods, so fault tests can
 * pause, resume, kill and restart it. Without memcached installed the class fails with a message
 * naming the package to install; it never skips.
 *
 * <pre>{@code
 * @ExtendWith(MemcachedExtension.class)
 * class StoreTest {
 *     @Test void answers(MemcachedProcess memcached) { ... memcached.address() ... }
 * }
 * }</pre>
 */
public final class MemcachedExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(MemcachedExtension.class);
    private static final String KEY = "memcached";

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(NAMESPACE).getOrComputeIfAbsent(KEY, key -> MemcachedProcess.start(), MemcachedProcess.class);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        MemcachedProcess memcached = context.getStore(NAMESPACE).remove(KEY, MemcachedProcess.class);
        if (memcached != null) {
            memcached.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == MemcachedProcess.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ExtensionContext classContext = context;
        while (classContext.getTestMethod().isPresent() && classContext.getParent().isPresent()) {
            classContext = classContext.getParent().get();
        }
        return classContext.getStore(NAMESPACE).getOrComputeIfAbsent(KEY, key -> MemcachedProcess.start(),
                MemcachedProcess.class);
    }
}

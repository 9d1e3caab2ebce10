package org.testbed.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeClassTemplateInvocationCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.params.support.ParameterInfo;
import org.junit.platform.commons.support.AnnotationSupport;
import org.testbed.variant.Variant;

/**
 * The per-variant lifecycle of the contract suites (see {@link StartedVariant}). The started
 * variant lives in the JUnit store of the class invocation (or of the test), which closes it, and
 * with it its memcached, when that invocation ends, even when a test or a later start failed.
 */
final class StartedVariantExtension implements BeforeClassTemplateInvocationCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(StartedVariantExtension.class);
    private static final String KEY = "running";

    @Override
    public void beforeClassTemplateInvocation(ExtensionContext context) {
        Optional<StartedVariant> started = AnnotationSupport.findAnnotation(context.getRequiredTestClass(), StartedVariant.class);
        if (started.isPresent()) {
            context.getStore(NAMESPACE).put(KEY, start(variantOf(context), started.get()));
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RunningVariant.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Optional<StartedVariant> ownStart = parameter.findAnnotation(StartedVariant.class);
        if (ownStart.isPresent() && parameter.getDeclaringExecutable() instanceof Method) {
            // The test's own variant, in the test's store: closed when the test ends.
            return context.getStore(NAMESPACE).getOrComputeIfAbsent(KEY + "-" + parameter.getIndex(),
                    key -> start(variantOf(context), ownStart.get()), RunningVariant.class);
        }
        RunningVariant running = context.getStore(NAMESPACE).get(KEY, RunningVariant.class);
        if (running == null) {
            throw new ParameterResolutionException("No variant started for " + parameter.getDeclaringExecutable()
                    + ": annotate the @ParameterizedClass, or a test method's parameter, with @StartedVariant");
        }
        return running;
    }

    /** The variant of the enclosing {@code @ParameterizedClass} invocation: its first argument. */
    private static Variant variantOf(ExtensionContext context) {
        return ParameterInfo.get(context).getArguments().get(0, Variant.class);
    }

    private static RunningVariant start(Variant variant, StartedVariant settings) {
        List<String> args = List.of(settings.args());
        try {
            String log = settings.log().isEmpty() ? RunningVariant.logLabel(args) : settings.log();
            return RunningVariant.start(variant, args, log, settings.jvm());
        } catch (IOException e) {
            throw new UncheckedIOException(variant.name() + " did not start: " + e.getMessage(), e);
        }
    }
}

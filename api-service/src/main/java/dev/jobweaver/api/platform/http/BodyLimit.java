package dev.jobweaver.api.platform.http;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;
import jakarta.ws.rs.NameBinding;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On an endpoint that takes a {@link Body}: its body may be at most {@code jobweaver.api.validation.max-body-bytes}
 * long, as a submission's, else a 413 {@code API.PAYLOAD_TOO_LARGE} before Jackson reads a byte. The transport-wide
 * {@code quarkus.http.limits.max-body-size} is larger, for the endpoints that take no JSON body.
 */
@NameBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface BodyLimit {

    /** Reads the body into memory up to one byte past the limit: Quarkus has buffered it already, the copy is small. */
    @Provider
    @BodyLimit
    @Singleton
    final class Check implements ReaderInterceptor {

        /** Looked up per request: Quarkus makes the interceptor before the configuration RestSupport needs. */
        private final Instance<RestSupport> support;

        public Check(Instance<RestSupport> support) {
            this.support = support;
        }

        @Override
        public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
            RestSupport rest = support.get();
            byte[] body = context.getInputStream().readNBytes(rest.limits().maxBodyBytes() + 1);
            rest.checkSize(body);
            context.setInputStream(new ByteArrayInputStream(body));
            return context.proceed();
        }
    }
}

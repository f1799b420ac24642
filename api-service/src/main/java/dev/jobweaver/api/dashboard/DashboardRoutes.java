package dev.jobweaver.api.dashboard;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * {@code /dashboard} redirects to {@code /dashboard/}, where Quarkus serves the page's {@code index.html} from
 * {@code META-INF/resources/dashboard/}: the page's relative module paths resolve against the directory.
 */
@ApplicationScoped
public class DashboardRoutes {

    void install(@Observes Router router) {
        router.get("/dashboard").order(-10).handler(ctx -> {
            if (!"/dashboard".equals(ctx.request().path())) {
                // Vert.x matches /dashboard/ to this route too: that one is the page itself
                ctx.next();
                return;
            }
            String query = ctx.request().query();
            ctx.response().setStatusCode(302)
                    .putHeader(HttpHeaders.LOCATION, "/dashboard/" + (query == null ? "" : "?" + query))
                    .end();
        });
    }
}

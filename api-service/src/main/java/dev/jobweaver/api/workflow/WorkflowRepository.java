package dev.jobweaver.api.workflow;

import dev.jobweaver.api.platform.db.LiveRowRepository;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The {@link Workflow} entities, with Hibernate Reactive Panache; the live ones are read as {@link LiveRowRepository}
 * reads them. Every method runs in the caller's reactive session on its Vert.x context.
 */
@ApplicationScoped
public class WorkflowRepository implements LiveRowRepository<Workflow> {
}

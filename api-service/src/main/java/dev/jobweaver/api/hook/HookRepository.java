package dev.jobweaver.api.hook;

import dev.jobweaver.api.platform.db.LiveRowRepository;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The {@link Hook} entities, with Hibernate Reactive Panache; the live ones are read as {@link LiveRowRepository} reads
 * them. Every method runs in the caller's reactive session ({@code Panache.withSession} or
 * {@code Panache.withTransaction}) on its Vert.x context.
 */
@ApplicationScoped
public class HookRepository implements LiveRowRepository<Hook> {
}

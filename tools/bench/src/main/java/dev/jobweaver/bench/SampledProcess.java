package dev.jobweaver.bench;

/**
 * A process whose RSS and CPU the bench samples.
 *
 * @param name how tables call it ({@code api-service}, {@code kafka}, {@code postgres}, {@code bench})
 * @param pid its process id
 * @param withDescendants whether its child processes count too (PostgreSQL: one process per connection)
 */
public record SampledProcess(String name, long pid, boolean withDescendants) {
}

package dev.jobweaver.bench;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Live progress of one workload: counters updated by the submitter and the completion watcher, shown on one
 * updating line on a terminal, or as a plain line every few seconds otherwise.
 */
public final class Progress implements AutoCloseable {

    private final String label;
    private final int total;
    private final PrintStream out;
    private final boolean terminal;
    private final long startNanos = System.nanoTime();
    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicInteger done = new AtomicInteger();
    private final Thread painter;
    private volatile boolean closed;

    /** Starts showing progress of {@code label} towards {@code total} jobs on {@code out}. */
    public Progress(String label, int total, PrintStream out, boolean terminal) {
        this.label = label;
        this.total = total;
        this.out = out;
        this.terminal = terminal;
        this.painter = Thread.ofPlatform().daemon().name("bench-progress").start(this::paintLoop);
    }

    /** One more request answered. */
    public void sent() {
        sent.incrementAndGet();
    }

    /** {@code n} more jobs terminal. */
    public void done(int n) {
        done.addAndGet(n);
    }

    private String line() {
        return ProgressLine.render(label, total, sent.get(), done.get(), (System.nanoTime() - startNanos) / 1e9);
    }

    private void paintLoop() {
        long period = terminal ? 250 : 5_000;
        while (!closed) {
            try {
                Thread.sleep(period);
            } catch (InterruptedException e) {
                return;
            }
            if (!closed) {
                paint();
            }
        }
    }

    private synchronized void paint() {
        if (terminal) {
            out.print("\r" + line() + "\u001b[K");
        } else {
            out.println(line());
        }
        out.flush();
    }

    /** Stops the painter and leaves the final line on the screen. */
    @Override
    public void close() {
        closed = true;
        painter.interrupt();
        try {
            painter.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (terminal) {
                out.print("\r" + line() + "\u001b[K\n");
            } else {
                out.println(line());
            }
            out.flush();
        }
    }
}

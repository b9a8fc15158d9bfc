package dev.weft.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Exchanger;
import java.util.concurrent.SynchronousQueue;
import java.util.function.Supplier;

/**
 * The thread peers of the fiber chain: one thread per member, each taking a value from its
 * link, incrementing it and handing it to the next link, plus a driver thread of the same
 * kind that feeds the first link and drains the last. The benchmark thread only asks the
 * driver for a batch of messages, so the hops themselves are all between threads of one kind.
 */
final class ThreadChain {

    /** A one-to-one rendezvous between two neighbours of the chain. */
    interface Link {
        void send(Integer value) throws InterruptedException;

        Integer receive() throws InterruptedException;

        /** A {@link SynchronousQueue}: put on one side, take on the other. */
        static Link queue() {
            SynchronousQueue<Integer> queue = new SynchronousQueue<>();
            return new Link() {
                @Override
                public void send(Integer value) throws InterruptedException {
                    queue.put(value);
                }

                @Override
                public Integer receive() throws InterruptedException {
                    return queue.take();
                }
            };
        }

        /** An {@link Exchanger}: the sender gives the value, the receiver gives nothing back. */
        static Link exchanger() {
            Exchanger<Integer> exchanger = new Exchanger<>();
            return new Link() {
                @Override
                public void send(Integer value) throws InterruptedException {
                    exchanger.exchange(value);
                }

                @Override
                public Integer receive() throws InterruptedException {
                    return exchanger.exchange(null);
                }
            };
        }
    }

    private record Batch(int seed, int messages) {
    }

    private final Link[] links;
    private final List<Thread> threads = new ArrayList<>();
    private final SynchronousQueue<Batch> requests = new SynchronousQueue<>();
    private final SynchronousQueue<Integer> replies = new SynchronousQueue<>();

    /** Starts {@code length} members and a driver, all made by {@code threads}. */
    ThreadChain(int length, Thread.Builder threads, Supplier<Link> links) {
        this.links = new Link[length + 1];
        for (int i = 0; i <= length; i++) {
            this.links[i] = links.get();
        }
        for (int i = 0; i < length; i++) {
            int member = i;
            this.threads.add(threads.start(() -> pass(member)));
        }
        this.threads.add(threads.start(this::drive));
    }

    private void pass(int member) {
        try {
            while (true) {
                Integer value = links[member].receive();
                links[member + 1].send(value + 1);
            }
        } catch (InterruptedException stopped) {
            // the chain is being stopped
        }
    }

    private void drive() {
        try {
            while (true) {
                Batch batch = requests.take();
                Integer value = batch.seed();
                for (int m = 0; m < batch.messages(); m++) {
                    links[0].send(value);
                    value = links[links.length - 1].receive();
                }
                replies.put(value);
            }
        } catch (InterruptedException stopped) {
            // the chain is being stopped
        }
    }

    /**
     * Sends {@code messages} messages down the chain one after another, each starting from the
     * value the previous one came back with; returns the last value.
     */
    int send(int seed, int messages) throws InterruptedException {
        requests.put(new Batch(seed, messages));
        return replies.take();
    }

    /** Interrupts every thread of the chain and waits for it to end. */
    void stop() throws InterruptedException {
        for (Thread t : threads) {
            t.interrupt();
        }
        for (Thread t : threads) {
            t.join();
        }
    }
}

package dev.weft.examples;

/**
 * A deterministic stand-in for the machine-specific mold and injection unit of thesis section
 * 5.1: each cycle the mold moves towards its target position by a fixed step, and while
 * injecting, the injected volume grows by a fixed amount. It logs every event, and refuses
 * what would break the machine: injecting into an open mold, moving or ejecting while
 * injecting, ejecting from a mold that is not fully open.
 */
public final class SimulatedInjection implements Injection {

    /** The position of a fully open mold. */
    public static final double OPEN = 100;
    /** The position of a closed mold. */
    public static final double CLOSED = 0;

    private final double moldStepPerCycle;
    private final double volumePerCycle;
    private final MachineLog log;
    private double position;
    private double target;
    private double volume;
    private boolean injecting;
    private int partsEjected;

    /** A unit whose mold stands still at {@code startPosition}. */
    public SimulatedInjection(double startPosition, double moldStepPerCycle, double volumePerCycle, MachineLog log) {
        this.position = startPosition;
        this.target = startPosition;
        this.moldStepPerCycle = moldStepPerCycle;
        this.volumePerCycle = volumePerCycle;
        this.log = log;
    }

    /** Advances one cycle: moves the mold one step towards its target, injects one portion. */
    public void step() {
        if (position != target) {
            position = target > position
                    ? Math.min(target, position + moldStepPerCycle)
                    : Math.max(target, position - moldStepPerCycle);
            if (position == CLOSED) {
                log.event("mold closed");
            } else if (position == OPEN) {
                log.event("mold open");
            }
        }
        if (injecting) {
            volume += volumePerCycle;
        }
    }

    @Override
    public double getVolume() {
        return volume;
    }

    @Override
    public double getPosition() {
        return position;
    }

    @Override
    public void setTargetPosition(double pos) {
        if (injecting) {
            throw new IllegalStateException("the mold cannot move while injecting");
        }
        target = pos;
        log.event((pos < position ? "closing" : "opening") + " mold");
    }

    @Override
    public void startInjection() {
        if (position != CLOSED) {
            throw new IllegalStateException("cannot inject into an open mold (position " + position + ")");
        }
        injecting = true;
        log.event("injection started, volume " + MachineLog.format(volume));
    }

    @Override
    public void stopInjection() {
        injecting = false;
        log.event("injection stopped, volume " + MachineLog.format(volume));
    }

    @Override
    public void ejectPart() {
        if (injecting || position != OPEN) {
            throw new IllegalStateException("cannot eject: the mold is not open (position " + position + ")");
        }
        partsEjected++;
        log.event("part ejected");
    }

    public int partsEjected() {
        return partsEjected;
    }
}

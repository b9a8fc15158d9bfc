package dev.weft.weaver.rewrite;

import dev.weft.internal.contract.WeavingContract;

import dev.weft.weaver.analysis.Instructions;
import dev.weft.weaver.analysis.SlotType;
import dev.weft.weaver.analysis.SuspensionSite;
import dev.weft.weaver.analysis.SuspensionSites;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The rewrite pass for one twin ({@link TwinMethods}): makes it save its frame into its
 * {@code Fiber} and return when the coroutine suspends (unwinding), and, when the engine resumes
 * the frame, rebuild it from there and go on after the call it was suspended in with the result
 * the engine passes in, or rebuild its saved callee by calling it again. The fiber, its last parameter, moves at once to a new local after
 * the method's own (the parameter's slot is an ordinary local of the original code), and every
 * frame declares it.
 *
 * <p>At each linked site (below):
 * <pre>
 * call_k:                           // [below..., receiver, args...]
 *   (instance calls, unless the receiver is a saved local's) args -> scratch; dup; astore receiverTemp; scratch -> args
 *   aload fiber; invokedynamic name(receiver?, args..., Fiber) TwinLinker.link(opcode, Owner)
 *                                   // or, of a static or private method of Owner that has a twin:
 *                                   // invokestatic / invokespecial Owner.name$weft(args..., Fiber)
 *                                   // [below..., result]
 *   aload fiber; invokevirtual Fiber.isUnwinding(); ifeq continue_k
 *   pop result; below -> scratch
 *   fiber.push(receiverTemp) (if kept); fiber.push(below), top first; fiber.push(live locals), last first
 *   fiber.endFrame(Owner.class, ldc MethodHandle(Owner.name$weft), this or null, siteId)
 *                                   // siteId | TAIL_SITE if the call is a tail call (isTailCall)
 *   return zero or null
 * resume_k:                         // [below...]: reached from the prologue only
 *   fiber.resumed&lt;Kind&gt;() (checkcast)   // the call's result, or its exception thrown here,
 *                                   // inside the call's try blocks: the frame's own handlers apply
 * continue_k:                       // [below..., result]
 * </pre>
 * The handle is an exact call of the twin ({@code REF_invokeSpecial}, {@code REF_invokeStatic}),
 * by which the engine calls it on its own receiver to resume the frame: its arguments then are
 * zero or null. At the method's start:
 * <pre>
 *   aload fiberParameter; astore fiber
 *   aload fiber; invokevirtual Fiber.isResuming(); ifeq start
 *   lookupswitch (fiber.popInt()) { siteId_k: restore_k; default: throw fiber.notASite(...) }
 * restore_k:
 *   every local of call_k's frame = fiber.pop() if live, else zero or null, first slot first
 *   push fiber.pop() for below..., bottom first, then the receiver: fiber.pop() (checkcast), or,
 *   for a receiver loaded from a local that still held it at the call, aload that local again
 *   aload fiber; invokevirtual Fiber.rewindsCallee(); ifne rewind_k
 *   pop the receiver; goto resume_k // the callee has returned or thrown: the engine says which
 * rewind_k:                         // [below..., receiver]: the callee was saved too, and is rebuilt with this frame
 *   push zero or null for each argument; goto call_k   // the callee's prologue restores it in turn
 * start:
 * </pre>
 * At the start of each exception handler, but one that covers its own start:
 * <pre>
 * handler:                          // [exception]
 *   dup; aload fiber; swap; ldc "pkg.Owner.name$weft"
 *   invokevirtual Fiber.caught(Throwable, String)   // its trace completed with the saved frames
 * </pre>
 * Only the frames the engine resumes are rebuilt: the innermost saved frame alone when the
 * coroutine is resumed, so that a switch costs the same at any depth; each next frame alone as
 * the one before it returns, and once several have returned in a row, a few frames at a time
 * (the outermost of them called by the engine, each re-invoking its saved callee, the
 * innermost taking the result), as a stack unwinding itself by returns is likely to go on
 * returning. A frame saved at a tail call ({@code isTailCall}) is never rebuilt to take a
 * result: the engine passes the result on to the frame under it. The others stay saved, and
 * the suspension point is never called again.
 *
 * <p>The values saved per frame are exactly the slots the class's site table lists for the site
 * (null-typed ones included), but for a receiver the table marks as a local's (a recursive
 * {@code this.walk(...)} would otherwise save {@code this} twice: JMH put one value more per
 * frame at 11% of a same-fringe leaf), so that {@code serialize()} can read a suspended fiber as
 * {@code CoroutineFrame}s and {@code deserialize} can write them back. A site is linked unless it is inside a monitor (a
 * twin cannot return out of a monitor it holds and take it again) or is a static or special call
 * of a JDK class (no twin there): those stay plain calls, which the woven engine cannot unwind
 * through.
 */
final class TwinRewriter extends CallSiteRewriter {

    private static final Handle LINK = new Handle(H_INVOKESTATIC, WeavingContract.LINKER_CLASS, WeavingContract.LINK_METHOD,
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;ILjava/lang/Class;)"
                    + "Ljava/lang/invoke/CallSite;", false);
    private static final SlotType FIBER_TYPE = SlotType.ofInternalName(TwinMethods.FIBER);

    private final boolean ownerIsInterface;
    /** The access flags of each method of the class that gets a twin, by key ({@code name + desc}). */
    private final Map<String, Integer> twinned;
    private final int fiberParameter;
    private final int fiber;
    private final int siteId;
    private final Map<SuspensionSite, LabelNode> resumeLabels = new HashMap<>();
    private final Set<SuspensionSite> tailCalls = new HashSet<>();

    private TwinRewriter(String owner, boolean ownerIsInterface, SuspensionSites twin, Map<String, Integer> twinned) {
        super(owner, twin, true, twin.method().maxLocals);
        this.ownerIsInterface = ownerIsInterface;
        this.twinned = twinned;
        this.fiberParameter = entryLocals().size() - 1;
        this.fiber = firstFree;
        this.siteId = firstFree + 1;
    }

    @Override
    int receiverTemp() {
        return firstFree + 2;
    }

    /** A receiver loaded from a live local that still holds it is not kept: that local is saved, and loaded again on rebuild. */
    @Override
    boolean keepsReceiver(SuspensionSite site) {
        return site.receiver() != null && !site.receiverIsLocal();
    }

    @Override
    int firstScratch() {
        return firstFree + 3;
    }

    @Override
    List<SlotType> frameLocals(List<SlotType> locals) {
        return withLocal(locals.size() > fiber ? locals.subList(0, fiber) : locals, fiber, FIBER_TYPE);
    }

    /**
     * Rewrites {@code twin}, a copy made by {@link TwinMethods#copy} of a method of class
     * {@code owner} (an interface if {@code ownerIsInterface}), whose methods that get twins are
     * {@code twinned} (their access flags by key).
     */
    static void rewrite(String owner, boolean ownerIsInterface, SuspensionSites twin, Map<String, Integer> twinned) {
        TwinRewriter rewriter = new TwinRewriter(owner, ownerIsInterface, twin, twinned);
        rewriter.declareFiberInFrames();
        rewriter.weaveHandlers(); // before the calls: a call a handler starts with keeps its label, where a rebuild goes, after the hook
        List<SuspensionSite> linked = twin.sites().stream().filter(TwinRewriter::isLinked).toList();
        linked.stream().filter(rewriter::isTailCall).forEach(rewriter.tailCalls::add); // before any code moves
        linked.forEach(rewriter::weaveCall);
        rewriter.weavePrologue(linked);
    }

    private static boolean isLinked(SuspensionSite site) {
        int opcode = site.call().getOpcode();
        boolean exact = opcode == INVOKESTATIC || opcode == INVOKESPECIAL;
        return site.monitors() == 0 && !(exact && isJdk(site.call().owner));
    }

    private static boolean isJdk(String internalName) {
        return internalName.startsWith("java/") || internalName.startsWith("javax/") || internalName.startsWith("jdk/")
                || internalName.startsWith("sun/") || internalName.startsWith("com/sun/");
    }

    /**
     * Whether the frame has nothing left to do after the call at {@code site} but return what
     * it gives ({@link WeavingContract#TAIL_SITE}): no handler of the method covers the call, so
     * that an exception thrown there leaves the frame at once, and the call's result is returned
     * as it is, or dropped by a void method, with at most unconditional jumps in between.
     */
    private boolean isTailCall(SuspensionSite site) {
        MethodInsnNode call = site.call();
        if (isHandled(call)) { // a linked call holds no monitor, the method's own included
            return false;
        }
        Type result = Type.getReturnType(call.desc);
        Type own = Type.getReturnType(method.desc);
        AbstractInsnNode next = nextExecuted(call);
        if (own.getSort() != Type.VOID) {
            return result.equals(own) && next != null && next.getOpcode() == own.getOpcode(IRETURN);
        }
        if (result.getSort() != Type.VOID) {
            if (next == null || next.getOpcode() != (result.getSize() == 2 ? POP2 : POP)) {
                return false;
            }
            next = nextExecuted(next);
        }
        return next != null && next.getOpcode() == RETURN;
    }

    private boolean isHandled(AbstractInsnNode insn) {
        int at = method.instructions.indexOf(insn);
        return method.tryCatchBlocks.stream().anyMatch(block -> Instructions.covers(block, method.instructions, at));
    }

    /** The instruction executed after {@code insn}, which falls through: unconditional jumps followed, at most a few. */
    private static AbstractInsnNode nextExecuted(AbstractInsnNode insn) {
        AbstractInsnNode next = Instructions.next(insn);
        for (int jumps = 0; next != null && next.getOpcode() == GOTO && jumps < 8; jumps++) {
            next = Instructions.atOrAfter(((JumpInsnNode) next).label);
        }
        return next == null || next.getOpcode() == GOTO ? null : next;
    }

    /** Adds the fiber's local to each of the method's own frames: it lives from the start to the end. */
    private void declareFiberInFrames() {
        for (AbstractInsnNode insn : method.instructions) {
            if (insn instanceof FrameNode frame) {
                List<Object> locals = frame.local == null ? new ArrayList<>() : new ArrayList<>(frame.local);
                int slots = 0;
                for (Object item : locals) {
                    slots += LONG.equals(item) || DOUBLE.equals(item) ? 2 : 1;
                }
                for (; slots < fiber; slots++) {
                    locals.add(TOP);
                }
                locals.add(TwinMethods.FIBER);
                frame.local = locals;
            }
        }
    }

    // ------------------------------------------------------------ handlers

    /**
     * Makes each exception handler first pass what it caught, and its twin's name as a stack
     * trace gives it, to the fiber ({@code fiber.caught}), which completes the exception's stack
     * trace with the frames still saved below that frame. A
     * handler that covers its own start (javac's for leaving a monitor, which takes any
     * exception its own code throws) is left as it is: a hook that failed there would run it again
     * and again.
     */
    private void weaveHandlers() {
        Set<LabelNode> handlers = new HashSet<>();
        for (TryCatchBlockNode block : method.tryCatchBlocks) {
            if (handlers.add(block.handler) && !coversItsHandler(block.handler)) {
                InsnList hook = new InsnList();
                hook.add(new InsnNode(DUP));
                hook.add(new VarInsnNode(ALOAD, fiber));
                hook.add(new InsnNode(SWAP));
                hook.add(new LdcInsnNode(owner.replace('/', '.') + "." + method.name));
                hook.add(fiberCall(WeavingContract.CAUGHT_METHOD, WeavingContract.CAUGHT_DESCRIPTOR));
                method.instructions.insertBefore(Instructions.atOrAfter(block.handler), hook);
            }
        }
    }

    /** Whether a try block whose handler is {@code handler} covers the handler's first instruction. */
    private boolean coversItsHandler(LabelNode handler) {
        int at = method.instructions.indexOf(Instructions.atOrAfter(handler));
        return method.tryCatchBlocks.stream()
                .anyMatch(block -> block.handler == handler && Instructions.covers(block, method.instructions, at));
    }

    // ------------------------------------------------------------ call sites

    private void weaveCall(SuspensionSite site) {
        labelCall(site);
        MethodInsnNode call = site.call();
        method.instructions.insertBefore(call, new VarInsnNode(ALOAD, fiber));
        AbstractInsnNode own = ownTwinCall(call);
        AbstractInsnNode linked = own != null ? own : linkedCall(call);
        method.instructions.set(call, linked);
        method.instructions.insert(linked, unwindCheck(site, linked));
    }

    /**
     * {@code call} as a direct call of its callee's twin, where the callee is a method of this
     * class that gets one and the call cannot select another (a static method, or a private
     * instance method); else null, and the call is linked. A direct call is what the linker would
     * link it to, without a call site's frames between the two twins: a recursion of twins
     * then takes the stack the recursion of the methods takes.
     */
    private MethodInsnNode ownTwinCall(MethodInsnNode call) {
        Integer access = call.owner.equals(owner) ? twinned.get(call.name + call.desc) : null;
        if (access == null) {
            return null;
        }
        boolean isStatic = (access & ACC_STATIC) != 0;
        String twinName = call.name + TwinMethods.SUFFIX;
        String twinDesc = TwinMethods.twinDesc(call.desc);
        if (call.getOpcode() == INVOKESTATIC && isStatic) {
            return new MethodInsnNode(INVOKESTATIC, owner, twinName, twinDesc, call.itf);
        }
        if (call.getOpcode() != INVOKESTATIC && !isStatic && (access & ACC_PRIVATE) != 0) {
            return new MethodInsnNode(INVOKESPECIAL, owner, twinName, twinDesc, ownerIsInterface);
        }
        return null;
    }

    /** {@code call} as a twin makes it: linked by {@code TwinLinker}, with the fiber, pushed before it, last. */
    static InvokeDynamicInsnNode linkedCall(MethodInsnNode call) {
        return new InvokeDynamicInsnNode(call.name, linkedDescriptor(call), LINK, call.getOpcode(),
                Type.getObjectType(call.owner));
    }

    /** The call's descriptor with its receiver, if any, first and the fiber last. */
    private static String linkedDescriptor(MethodInsnNode call) {
        String withFiber = TwinMethods.twinDesc(call.desc);
        if (call.getOpcode() == INVOKESTATIC) {
            return withFiber;
        }
        String receiver = call.owner.startsWith("[") ? call.owner : "L" + call.owner + ";";
        return "(" + receiver + withFiber.substring(1);
    }

    private InsnList unwindCheck(SuspensionSite site, AbstractInsnNode linked) {
        InsnList code = new InsnList();
        LabelNode continueLabel = new LabelNode();
        code.add(new VarInsnNode(ALOAD, fiber));
        code.add(fiberCall(WeavingContract.UNWINDING_METHOD, WeavingContract.FLAG_DESCRIPTOR));
        code.add(new JumpInsnNode(IFEQ, continueLabel));
        Type result = Type.getReturnType(site.call().desc);
        if (result.getSort() != Type.VOID) {
            code.add(new InsnNode(result.getSize() == 2 ? POP2 : POP));
        }
        int[] scratch = stackBelowToScratch(code, site);
        if (keepsReceiver(site)) {
            push(code, site.receiver(), receiverTemp());
        }
        List<SlotType> below = site.stackBelow();
        for (int j = below.size() - 1; j >= 0; j--) {
            push(code, below.get(j), scratch[j]);
        }
        for (int slot = site.locals().size() - 1; slot >= 0; slot--) {
            if (site.live().get(slot)) {
                push(code, site.locals().get(slot), slot);
            }
        }
        code.add(new VarInsnNode(ALOAD, fiber));
        code.add(new LdcInsnNode(Type.getObjectType(owner)));
        code.add(new LdcInsnNode(ownHandle()));
        code.add(hasSelf(site) ? new VarInsnNode(ALOAD, 0) : new InsnNode(ACONST_NULL));
        code.add(SlotCode.push(tailCalls.contains(site) ? site.bci() | WeavingContract.TAIL_SITE : site.bci()));
        code.add(fiberCall(WeavingContract.END_FRAME_METHOD, WeavingContract.END_FRAME_DESCRIPTOR));
        SlotCode.returnDefault(code, Type.getReturnType(method.desc));
        LabelNode resume = new LabelNode();
        resumeLabels.put(site, resume);
        code.add(resume);
        addFrame(code, frameLocals(site.locals()), site.stackBelow());
        takeResult(code, result);
        code.add(continueLabel);
        addFrameAfter(code, site, linked);
        return code;
    }

    /** Pushes the result of the resumed frame's call, of type {@code result}, or throws its exception. */
    private void takeResult(InsnList code, Type result) {
        code.add(new VarInsnNode(ALOAD, fiber));
        if (result.getSort() == Type.VOID) {
            code.add(fiberCall(WeavingContract.RESUMED_VOID_METHOD, "()V"));
            return;
        }
        SlotType type = SlotType.of(result);
        String kind = SlotCode.kind(type);
        code.add(fiberCall(WeavingContract.RESUMED_PREFIX + kind, WeavingContract.resumedDescriptor(kind)));
        SlotCode.castTo(code, type);
    }

    /** Whether the frame's own receiver is in local 0 at {@code site}: an instance method's, which is always saved. */
    private boolean hasSelf(SuspensionSite site) {
        return (method.access & ACC_STATIC) == 0 && !site.locals().isEmpty()
                && site.locals().get(0).kind() == SlotType.Kind.REFERENCE;
    }

    /** The handle of this twin as a constant: an exact call, by which the engine resumes its frame. */
    private Handle ownHandle() {
        boolean isStatic = (method.access & ACC_STATIC) != 0;
        return new Handle(isStatic ? H_INVOKESTATIC : H_INVOKESPECIAL, owner, method.name, method.desc, ownerIsInterface);
    }

    /** Saves the value of {@code type} in {@code slot} into the fiber, if it is one that is saved. */
    private void push(InsnList code, SlotType type, int slot) {
        if (isSaved(type)) {
            String kind = SlotCode.kind(type);
            code.add(new VarInsnNode(ALOAD, fiber));
            code.add(SlotCode.load(type, slot));
            code.add(fiberPush(kind));
        }
    }

    /** Pushes the next saved value of {@code type} from the fiber. */
    private void pop(InsnList code, SlotType type) {
        String kind = SlotCode.kind(type);
        code.add(new VarInsnNode(ALOAD, fiber));
        code.add(fiberPop(kind));
        if (type.kind() == SlotType.Kind.NULL) {
            code.add(new InsnNode(POP)); // saved as a reference, which the frame declares as null
            code.add(new InsnNode(ACONST_NULL));
        } else {
            SlotCode.castTo(code, type);
        }
    }

    /** Whether a value of {@code type} is saved: one the site table lists, not an unusable slot. */
    private static boolean isSaved(SlotType type) {
        return switch (type.kind()) {
            case INT, FLOAT, LONG, DOUBLE, REFERENCE, NULL -> true;
            default -> false;
        };
    }

    private static MethodInsnNode fiberPush(String kind) {
        return fiberCall(WeavingContract.PUSH_PREFIX + kind, WeavingContract.pushDescriptor(kind));
    }

    private static MethodInsnNode fiberPop(String kind) {
        return fiberCall(WeavingContract.POP_PREFIX + kind, WeavingContract.popDescriptor(kind));
    }

    private static MethodInsnNode fiberCall(String name, String descriptor) {
        return new MethodInsnNode(INVOKEVIRTUAL, TwinMethods.FIBER, name, descriptor, false);
    }

    // ------------------------------------------------------------ prologue

    private void weavePrologue(List<SuspensionSite> linked) {
        InsnList code = new InsnList();
        LabelNode start = new LabelNode();
        code.add(new VarInsnNode(ALOAD, fiberParameter));
        code.add(new VarInsnNode(ASTORE, fiber));
        if (!linked.isEmpty()) {
            rewindSwitch(code, linked, start);
        }
        code.add(start);
        if (!hasFrameBetween(null, Instructions.atOrAfter(method.instructions.getFirst()))) {
            addFrame(code, frameLocals(entryLocals()), List.of());
        }
        method.instructions.insert(code);
    }

    private void rewindSwitch(InsnList code, List<SuspensionSite> linked, LabelNode start) {
        code.add(new VarInsnNode(ALOAD, fiber));
        code.add(fiberCall(WeavingContract.RESUMING_METHOD, WeavingContract.FLAG_DESCRIPTOR));
        code.add(new JumpInsnNode(IFEQ, start));
        code.add(new VarInsnNode(ALOAD, fiber));
        code.add(fiberPop("Int"));
        code.add(new VarInsnNode(ISTORE, siteId));
        code.add(new VarInsnNode(ILOAD, siteId));
        List<SuspensionSite> sites = sortedById(linked);
        LabelNode notASite = new LabelNode();
        LabelNode[] restoreLabels = sites.stream().map(s -> new LabelNode()).toArray(LabelNode[]::new);
        code.add(new LookupSwitchInsnNode(notASite, sites.stream().mapToInt(SuspensionSite::bci).toArray(), restoreLabels));
        List<SlotType> atEntry = frameLocals(entryLocals());
        code.add(notASite);
        addFrame(code, withLocal(atEntry, siteId, SlotType.INT), List.of());
        code.add(new VarInsnNode(ALOAD, fiber));
        code.add(new LdcInsnNode(owner.replace('/', '.') + "." + method.name.substring(0,
                method.name.length() - TwinMethods.SUFFIX.length()) + Type.getMethodDescriptor(
                Type.getReturnType(method.desc), originalArguments())));
        code.add(new VarInsnNode(ILOAD, siteId));
        code.add(fiberCall(WeavingContract.NOT_A_SITE_METHOD, WeavingContract.FIBER_NOT_A_SITE_DESCRIPTOR));
        code.add(new InsnNode(ATHROW));
        for (int k = 0; k < sites.size(); k++) {
            code.add(restoreLabels[k]);
            addFrame(code, atEntry, List.of());
            rewind(code, sites.get(k));
        }
    }

    private Type[] originalArguments() {
        Type[] arguments = Type.getArgumentTypes(method.desc);
        return java.util.Arrays.copyOf(arguments, arguments.length - 1);
    }

    private void rewind(InsnList code, SuspensionSite site) {
        restoreFrame(code, site, (c, slot, type) -> pop(c, type));
        if (site.receiverIsLocal()) {
            code.add(new VarInsnNode(ALOAD, site.receiverLocal()));
        } else if (site.receiver() != null) {
            pop(code, site.receiver());
        }
        LabelNode rewindCallee = new LabelNode();
        code.add(new VarInsnNode(ALOAD, fiber));
        code.add(fiberCall(WeavingContract.REWINDS_CALLEE_METHOD, WeavingContract.FLAG_DESCRIPTOR));
        code.add(new JumpInsnNode(IFNE, rewindCallee));
        if (site.receiver() != null) {
            code.add(new InsnNode(POP));
        }
        code.add(new JumpInsnNode(GOTO, resumeLabels.get(site)));
        code.add(rewindCallee);
        List<SlotType> stack = new ArrayList<>(site.stackBelow());
        if (site.receiver() != null) {
            stack.add(site.receiver());
        }
        addFrame(code, frameLocals(site.locals()), stack);
        for (Type argument : Type.getArgumentTypes(site.call().desc)) {
            code.add(SlotCode.defaultValue(SlotType.of(argument)));
        }
        code.add(new JumpInsnNode(GOTO, callLabels.get(site)));
    }
}

package dev.weft.weaver.rewrite;

import dev.weft.internal.contract.WeavingContract;

import dev.weft.weaver.analysis.Instructions;
import dev.weft.weaver.analysis.SlotType;
import dev.weft.weaver.analysis.SuspensionSite;
import dev.weft.weaver.analysis.SuspensionSites;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The rewrite pass for one method of a class file before version 51, which can have no twins
 * (a class with twins keeps its methods as compiled, and its twins save and rebuild frames on
 * both engines): makes it able to save its frame into a {@code CoroutineFrame} when the
 * native-engine coroutine it runs in is captured, and to rebuild it from one when the coroutine is
 * restored. Adds three new locals after the method's own: the frame record, the receiver of the
 * call in progress, and scratch slots.
 *
 * <p>At each suspension site ({@link #weaveCall}):
 * <pre>
 * call_k:                           // [below..., receiver, args...]
 *   (instance calls) args -> scratch; dup; astore receiverTemp; scratch -> args
 *   invoke...                       // [below..., result]
 *   invokestatic WovenFrames.active()I; ifeq continue_k
 *   record = WovenFrames.captureFrame(Owner.class, "name(desc)", siteId, localCount, expressionCount)
 *   if record == null goto continue_k   // not being captured
 *   pop result; below -> scratch
 *   record[slot] = local, for each live local; record[...] = below..., receiverTemp
 *   return zero or null            // the caller is woven too, and saves itself next
 * continue_k:                       // [below..., result]
 * </pre>
 * At the method's start ({@link #weavePrologue}):
 * <pre>
 *   invokestatic WovenFrames.active()I; ifeq start
 *   record = WovenFrames.restoring(Owner.class, "name(desc)"); ifnull start
 *   lookupswitch (record.bci) { siteId_k: restore_k; default: throw WovenFrames.notASite(record) }
 * restore_k:
 *   every local of call_k's frame = record[slot] if live, else zero or null
 *   push record[...] for below..., then the receiver; push zero or null for each argument
 *   goto call_k                     // the callee, woven, restores itself in turn
 * start:
 * </pre>
 */
final class MethodRewriter extends CallSiteRewriter {

    private final OwnClass ownClass;
    private final int record;

    private MethodRewriter(String owner, SuspensionSites analysis, OwnClass ownClass, boolean frames) {
        super(owner, analysis, frames, analysis.method().maxLocals);
        this.ownClass = ownClass;
        this.record = firstFree;
    }

    @Override
    int receiverTemp() {
        return firstFree + 1;
    }

    @Override
    int firstScratch() {
        return firstFree + 2;
    }

    /**
     * Weaves the method of {@code analysis}, which belongs to class {@code owner}; returns, for
     * each site, the label that will stand right before its call in the woven code, with the
     * site's id (its original bytecode index, see {@code SubroutineInlining}). The woven code
     * pushes its class as {@code ownClass} says, and declares stack-map frames if {@code frames}
     * (class files of version 50 and later).
     */
    static Map<LabelNode, Integer> rewrite(String owner, SuspensionSites analysis, OwnClass ownClass, boolean frames) {
        MethodRewriter rewriter = new MethodRewriter(owner, analysis, ownClass, frames);
        analysis.sites().forEach(rewriter::weaveCall);
        rewriter.weavePrologue();
        return rewriter.invokeLabels;
    }

    private final Map<LabelNode, Integer> invokeLabels = new LinkedHashMap<>(); // in site order: the same bytes at every weave

    private String methodKey() {
        return method.name + method.desc;
    }

    // ------------------------------------------------------------ call sites

    private void weaveCall(SuspensionSite site) {
        labelCall(site);
        MethodInsnNode call = site.call();
        LabelNode invokeLabel = new LabelNode();
        method.instructions.insertBefore(call, invokeLabel);
        invokeLabels.put(invokeLabel, site.bci());
        method.instructions.insert(call, captureCheck(site, call));
    }

    private InsnList captureCheck(SuspensionSite site, MethodInsnNode call) {
        InsnList code = new InsnList();
        LabelNode continueLabel = new LabelNode();
        code.add(new MethodInsnNode(INVOKESTATIC, SlotCode.RUNTIME, WeavingContract.ACTIVE_METHOD, WeavingContract.ACTIVE_DESCRIPTOR, false));
        code.add(new JumpInsnNode(IFEQ, continueLabel));
        code.add(ownClass.push());
        code.add(new LdcInsnNode(methodKey()));
        code.add(SlotCode.push(site.bci()));
        code.add(SlotCode.push(site.locals().size()));
        code.add(SlotCode.push(site.expressionSlots()));
        code.add(new MethodInsnNode(INVOKESTATIC, SlotCode.RUNTIME, WeavingContract.CAPTURE_FRAME_METHOD,
                WeavingContract.CAPTURE_FRAME_DESCRIPTOR, false));
        code.add(new VarInsnNode(ASTORE, record));
        code.add(new VarInsnNode(ALOAD, record));
        code.add(new JumpInsnNode(IFNULL, continueLabel));
        capture(code, site, Type.getReturnType(call.desc));
        code.add(continueLabel);
        addFrameAfter(code, site, call);
        return code;
    }

    private void capture(InsnList code, SuspensionSite site, Type returnType) {
        if (returnType.getSort() != Type.VOID) {
            code.add(new InsnNode(returnType.getSize() == 2 ? POP2 : POP));
        }
        List<SlotType> below = site.stackBelow();
        int[] scratch = stackBelowToScratch(code, site);
        site.live().stream().forEach(slot -> {
            SlotType type = site.locals().get(slot);
            SlotCode.put(code, record, slot, type, SlotCode.load(type, slot));
        });
        int slot = site.locals().size();
        for (int j = 0; j < below.size(); j++) {
            if (below.get(j).kind() != SlotType.Kind.NULL) {
                SlotCode.put(code, record, slot, below.get(j), SlotCode.load(below.get(j), scratch[j]));
            }
            slot += below.get(j).getSize();
        }
        if (site.receiver() != null) {
            SlotCode.put(code, record, slot, SlotType.reference("Ljava/lang/Object;"), new VarInsnNode(ALOAD, receiverTemp()));
        }
        SlotCode.returnDefault(code, Type.getReturnType(method.desc));
    }

    // ------------------------------------------------------------ prologue

    private void weavePrologue() {
        InsnList code = new InsnList();
        LabelNode start = new LabelNode();
        LabelNode notASite = new LabelNode();
        code.add(new MethodInsnNode(INVOKESTATIC, SlotCode.RUNTIME, WeavingContract.ACTIVE_METHOD, WeavingContract.ACTIVE_DESCRIPTOR, false));
        code.add(new JumpInsnNode(IFEQ, start));
        code.add(ownClass.push());
        code.add(new LdcInsnNode(methodKey()));
        code.add(new MethodInsnNode(INVOKESTATIC, SlotCode.RUNTIME, WeavingContract.RESTORING_METHOD,
                WeavingContract.RESTORING_DESCRIPTOR, false));
        code.add(new InsnNode(DUP));
        code.add(new VarInsnNode(ASTORE, record));
        code.add(new JumpInsnNode(IFNULL, start));
        code.add(new VarInsnNode(ALOAD, record));
        code.add(new FieldInsnNode(GETFIELD, SlotCode.FRAME, WeavingContract.FRAME_RECORD_SITE_FIELD, "I"));
        List<SuspensionSite> sites = sortedById(analysis.sites());
        LabelNode[] restoreLabels = sites.stream().map(s -> new LabelNode()).toArray(LabelNode[]::new);
        code.add(new LookupSwitchInsnNode(notASite, sites.stream().mapToInt(SuspensionSite::bci).toArray(), restoreLabels));
        List<SlotType> withRecord = entryLocalsWithRecord();
        code.add(notASite);
        addFrame(code, withRecord, List.of());
        code.add(new VarInsnNode(ALOAD, record));
        code.add(new MethodInsnNode(INVOKESTATIC, SlotCode.RUNTIME, WeavingContract.NOT_A_SITE_METHOD,
                WeavingContract.RECORD_NOT_A_SITE_DESCRIPTOR, false));
        code.add(new InsnNode(ATHROW));
        for (int k = 0; k < sites.size(); k++) {
            code.add(restoreLabels[k]);
            addFrame(code, withRecord, List.of());
            restore(code, sites.get(k));
        }
        code.add(start);
        if (!hasFrameBetween(null, Instructions.atOrAfter(method.instructions.getFirst()))) {
            addFrame(code, entryLocals(), List.of());
        }
        method.instructions.insert(code);
    }

    private void restore(InsnList code, SuspensionSite site) {
        restoreAndJump(code, site, (c, slot, type) -> SlotCode.get(c, record, slot, type));
    }

    private List<SlotType> entryLocalsWithRecord() {
        return withLocal(entryLocals(), record, SlotType.ofInternalName(SlotCode.FRAME));
    }
}

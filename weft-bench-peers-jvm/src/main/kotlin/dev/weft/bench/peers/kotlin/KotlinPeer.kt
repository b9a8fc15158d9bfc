// The Kotlin peer: kotlinx.coroutines on the one-thread event loop of runBlocking, rendezvous
// channels for the fiber chain and the switch ring, and sequence {} generators for the same fringe.
//
// Command line as Plan.Args: bench|switch|memory [--quick] [N...]. bench runs the fiber chain and
// the same fringe (and the switch ring for each N), switch the ring for each N, memory one reading
// for each N (run-peers.sh gives one N per process).
package dev.weft.bench.peers.kotlin

import dev.weft.bench.peers.Plan
import dev.weft.bench.peers.Tree
import kotlin.system.exitProcess
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.joinAll
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking

private const val PEER = "kotlin-coroutines"

fun main(args: Array<String>) {
    val a = try {
        Plan.Args.parse(args)
    } catch (e: IllegalArgumentException) {
        System.err.println("KotlinPeerKt: ${e.message}")
        exitProcess(2)
    }
    val plan = Plan(a.quick())
    when (a.mode()) {
        "bench" -> bench(plan, true, a.counts())
        "switch" -> bench(plan, false, a.counts())
        else -> a.counts().forEach { memory(it) }
    }
    exitProcess(0)
}

private fun note(what: String) =
    "$what; runBlocking event loop (1 thread); kotlin ${KotlinVersion.CURRENT}; ${Plan.jvmNote()}"

/** Nanoseconds per unit, one value per timed run, as the plan says (see Plan.measure). */
private suspend fun measure(
    plan: Plan,
    unitsPerCount: Double,
    firstCount: Long,
    granule: Long = 1,
    run: suspend (Long) -> Long,
): DoubleArray {
    val m = plan.measure(unitsPerCount, firstCount, granule)
    while (m.more()) m.record(run(m.count()))
    return m.results()
}

private fun bench(plan: Plan, chainAndFringe: Boolean, switchCounts: IntArray) = runBlocking {
    if (chainAndFringe) for (n in Plan.CHAIN_LENGTHS) fiberChain(plan, n)
    for (n in switchCounts) switchRing(plan, n)
    if (chainAndFringe) for (leaves in Plan.FRINGE_LEAVES) sameFringe(plan, leaves)
}

private suspend fun CoroutineScope.fiberChain(plan: Plan, n: Int) {
    val channels = Array(n + 1) { Channel<Int>(Channel.RENDEZVOUS) }
    val stages = List(n) { i ->
        launch {
            for (v in channels[i]) channels[i + 1].send(v + 1)
            channels[i + 1].close()
        }
    }
    val first = channels[0]
    val last = channels[n]
    val ns = measure(plan, (n + 1).toDouble(), 1) { messages ->
        val t0 = System.nanoTime()
        for (m in 0 until messages) {
            val v = (m and 0xFFFF).toInt()
            first.send(v)
            val r = last.receive()
            check(r == v + n) { "chain returned $r for $v" }
        }
        System.nanoTime() - t0
    }
    first.close()
    stages.joinAll()
    Plan.row(PEER, "fiber-chain", n.toLong(), "ns-per-hop", Plan.median(ns), "ns",
        note("median of ${ns.size}; hop = one channel hand-off, ${n + 1} per message"))
}

private suspend fun CoroutineScope.switchRing(plan: Plan, n: Int) {
    val channels = Array(n) { Channel<Int>(Channel.RENDEZVOUS) }
    val done = Channel<Int>(Channel.RENDEZVOUS)
    val stages = List(n) { i ->
        launch {
            val next = channels[(i + 1) % n]
            for (v in channels[i]) {
                if (v == 0) done.send(0) else next.send(v - 1)
            }
        }
    }
    val start = channels[0]
    val ns = measure(plan, 1.0, 2L * n) { switches ->
        val t0 = System.nanoTime()
        // A token t makes t + 2 switches: in, t passes round the ring, out to the driver.
        var left = switches
        while (left > 0) {
            val token = maxOf(0L, minOf(left, 1L shl 30) - 2).toInt()
            start.send(token)
            done.receive()
            left -= token + 2
        }
        System.nanoTime() - t0
    }
    channels.forEach { it.close() }
    stages.joinAll()
    Plan.row(PEER, "switch", n.toLong(), "switches-per-second", 1e9 / Plan.median(ns), "1/s",
        note("median of ${ns.size}; ring of rendezvous channels, one token"))
}

private fun leaves(tree: Tree): Sequence<Int> = sequence { walk(tree) }

private suspend fun SequenceScope<Int>.walk(t: Tree) {
    if (t.left == null) {
        yield(t.leaf)
    } else {
        walk(t.left)
        walk(t.right)
    }
}

/** Compares two fringes, or only their first [limit] leaves (a slow start of calibration). */
fun sameFringe(a: Tree, b: Tree, limit: Long = Long.MAX_VALUE): Boolean {
    val ia = leaves(a).iterator()
    val ib = leaves(b).iterator()
    var i = 0L
    while (true) {
        val ha = ia.hasNext()
        val hb = ib.hasNext()
        if (ha != hb) return false
        if (!ha || i == limit) return true
        if (ia.next() != ib.next()) return false
        i++
    }
}

private suspend fun sameFringe(plan: Plan, leaves: Int) {
    val a = Tree.balanced(leaves)
    val b = Tree.lopsided(leaves)
    // A check that unequal fringes compare unequal, on small trees.
    check(!sameFringe(Tree.balanced(1000), Tree.lopsidedDifferentLast(1000))) { "same-fringe missed a difference" }
    // The unit is one leaf compared: whole trees while that many are left, then a prefix.
    val ns = measure(plan, 1.0, 1, leaves.toLong()) { count ->
        val t0 = System.nanoTime()
        var left = count
        while (left > 0) {
            val limit = if (left >= leaves) Long.MAX_VALUE else left
            check(sameFringe(a, b, limit)) { "equal fringes compared unequal" }
            left -= leaves
        }
        System.nanoTime() - t0
    }
    Plan.row(PEER, "same-fringe", leaves.toLong(), "ns-per-leaf", Plan.median(ns), "ns",
        note("median of ${ns.size}; two sequence {} generators"))
}

private fun memory(n: Int) = runBlocking {
    // As weft-bench's probes: JIT_WARM_UP coroutines made and finished, so that compiling their code
    // is not counted, then one kept, so that the reading before holds the classes.
    val jitGate = Channel<Unit>()
    val jitWarm = List(Plan.JIT_WARM_UP) { launch(start = CoroutineStart.UNDISPATCHED) { jitGate.receive() } }
    jitWarm.forEach { it.cancel() }
    jitWarm.joinAll()
    val warmGate = Channel<Unit>()
    val warm = launch(start = CoroutineStart.UNDISPATCHED) { warmGate.receive() }
    Plan.MemoryReading.warmUp()
    val before = Plan.MemoryReading.settled()
    val gate = Channel<Unit>()
    val parked = List(n) { launch(start = CoroutineStart.UNDISPATCHED) { gate.receive() } }
    val after = Plan.MemoryReading.settled()
    Plan.memoryRows(PEER, n, before, after,
        "coroutines suspended in receive on one channel; runBlocking event loop (1 thread); kotlin ${KotlinVersion.CURRENT}")
    parked.forEach { it.cancel() }
    warm.cancel()
}

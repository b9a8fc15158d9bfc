// The Go peer of Weft's benchmark suite: goroutines talking through unbuffered channels, on the
// workloads of weft-bench/peers/README.md. Standard library only.
//
//	goroutines-peer bench|switch|memory [--quick] [N...]   (see main)
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

const peer = "go-goroutines"

var (
	chainLengths      = []int{5, 5000}
	switchCountsFull  = []int{100, 1000, 5000, 10000, 20000, 30000, 40000, 50000}
	switchCountsQuick = []int{100, 1000}
	fringeLeaves      = []int{1000, 100000}
)

// plan says how long each repetition runs and how many there are; the same numbers as every peer.
type plan struct {
	target time.Duration // wall time one timed run aims at
	warmup time.Duration // untimed runs at the calibrated count, at least this long
	reps   int           // timed runs; the median is reported
	maxRow time.Duration // where reps runs would take longer than this, fewer are done
}

func newPlan(quick bool) plan {
	if quick {
		return plan{40 * time.Millisecond, 150 * time.Millisecond, 3, 1500 * time.Millisecond}
	}
	return plan{250 * time.Millisecond, 500 * time.Millisecond, 7, 12 * time.Second}
}

// measure times run(count), which returns its duration, the same way in every peer: one untimed
// run at firstCount, which pays what happens only once (goroutines started, stacks grown); then counts from
// firstCount up by fours until a run takes an eighth of the target, then the count that takes about
// the target (a multiple of granule once it reaches one, never below firstCount); warm-up runs at
// that count for p.warmup unless one run alone is longer (the last warm-up run sets the count again);
// then p.reps timed runs, or fewer where
// they would take longer than p.maxRow. It returns nanoseconds per unit, one value per timed run.
func (p plan) measure(unitsPerCount float64, firstCount, granule int64, run func(int64) time.Duration) []float64 {
	run(firstCount)
	count := firstCount
	var t time.Duration
	for {
		t = run(count)
		if t >= p.target/8 || count >= 1<<40 {
			break
		}
		count *= 4
	}
	reps, estimate := p.fit(&count, t, firstCount, granule)
	if estimate < float64(p.warmup) {
		for warmed := time.Duration(0); warmed < p.warmup; {
			t = run(count)
			warmed += t
		}
		reps, _ = p.fit(&count, t, firstCount, granule) // again, on warm code
	}
	out := make([]float64, reps)
	for r := range out {
		out[r] = float64(run(count)) / (float64(count) * unitsPerCount)
	}
	return out
}

// fit sets *count to the count that takes about p.target, from a run of *count that took t, and
// returns how many timed runs fit in p.maxRow and the estimated time of one run.
func (p plan) fit(count *int64, t time.Duration, firstCount, granule int64) (int, float64) {
	perCount := float64(max(t, 1)) / float64(*count)
	c := max(1, int64(float64(p.target)/perCount))
	if c >= granule {
		c = max(granule, int64(math.Round(float64(c)/float64(granule)))*granule)
	}
	*count = max(firstCount, c)
	estimate := perCount * float64(*count)
	reps := p.reps
	if estimate*float64(reps) > float64(p.maxRow) {
		reps = max(1, min(p.reps, int(float64(p.maxRow)/estimate)))
	}
	return reps, estimate
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func row(workload string, param int, metric string, value float64, unit, note string) {
	v := strconv.FormatFloat(value, 'f', 3, 64)
	if value >= 1000 || value <= -1000 {
		v = strconv.FormatFloat(value, 'f', 0, 64)
	}
	note = strings.NewReplacer("\t", " ", "\n", " ").Replace(note)
	fmt.Printf("%s\t%s\t%d\t%s\t%s\t%s\t%s\n", peer, workload, param, metric, v, unit, note)
}

func note(what string) string {
	return fmt.Sprintf("%s; %s GOMAXPROCS=%d", what, runtime.Version(), runtime.GOMAXPROCS(0))
}

func fiberChain(p plan, n int) {
	chans := make([]chan int, n+1)
	for i := range chans {
		chans[i] = make(chan int)
	}
	for i := 0; i < n; i++ {
		go func(in <-chan int, out chan<- int) {
			for v := range in {
				out <- v + 1
			}
			close(out)
		}(chans[i], chans[i+1])
	}
	first, last := chans[0], chans[n]
	ns := p.measure(float64(n+1), 1, 1, func(messages int64) time.Duration {
		t0 := time.Now()
		for m := int64(0); m < messages; m++ {
			v := int(m & 0xFFFF)
			first <- v
			if r := <-last; r != v+n {
				panic(fmt.Sprintf("chain returned %d for %d", r, v))
			}
		}
		return time.Since(t0)
	})
	close(first)
	for range last {
	}
	row("fiber-chain", n, "ns-per-hop", median(ns), "ns",
		note(fmt.Sprintf("median of %d; hop = one channel hand-off, %d per message", len(ns), n+1)))
}

func switchRing(p plan, n int) {
	chans := make([]chan int, n)
	for i := range chans {
		chans[i] = make(chan int)
	}
	done := make(chan int)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(in <-chan int, out chan<- int) {
			defer wg.Done()
			for v := range in {
				if v == 0 {
					done <- 0
				} else {
					out <- v - 1
				}
			}
		}(chans[i], chans[(i+1)%n])
	}
	start := chans[0]
	ns := p.measure(1, 2*int64(n), 1, func(switches int64) time.Duration {
		t0 := time.Now()
		// A token t makes t + 2 switches: in, t passes round the ring, out to the driver.
		for left := switches; left > 0; {
			token := max(0, min(left, 1<<30)-2)
			start <- int(token)
			<-done
			left -= token + 2
		}
		return time.Since(t0)
	})
	for _, c := range chans {
		close(c)
	}
	wg.Wait()
	row("switch", n, "switches-per-second", 1e9/median(ns), "1/s",
		note(fmt.Sprintf("median of %d; ring of unbuffered channels, one token", len(ns))))
}

// tree is a binary tree whose leaves (left == nil) hold values; see README for the two shapes.
type tree struct {
	left, right *tree
	leaf        int
}

func build(lo, hi, divisor, changed int) *tree {
	if hi-lo == 1 {
		v := lo
		if lo == changed {
			v = -1
		}
		return &tree{leaf: v}
	}
	mid := lo + max(1, (hi-lo)/divisor)
	return &tree{left: build(lo, mid, divisor, changed), right: build(mid, hi, divisor, changed)}
}

func walk(t *tree, out chan<- int) {
	if t.left == nil {
		out <- t.leaf
		return
	}
	walk(t.left, out)
	walk(t.right, out)
}

func leaves(t *tree) <-chan int {
	c := make(chan int)
	go func() {
		walk(t, c)
		close(c)
	}()
	return c
}

// sameFringe compares the fringes of two trees, or only their first limit leaves where limit is
// smaller (calibration starts with short prefixes). A walker left behind by a prefix stays blocked
// for good: a few small goroutines, only during calibration.
func sameFringe(a, b *tree, limit int64) bool {
	ca, cb := leaves(a), leaves(b)
	for i := int64(0); ; i++ {
		if i == limit {
			return true
		}
		va, oka := <-ca
		vb, okb := <-cb
		if oka != okb || va != vb {
			// Drain whichever walker is still going, so that none is left blocked.
			for range ca {
			}
			for range cb {
			}
			return false
		}
		if !oka {
			return true
		}
	}
}

func sameFringeBench(p plan, n int) {
	a, b := build(0, n, 2, -1), build(0, n, 3, -1)
	// A check that unequal fringes compare unequal, on small trees.
	if sameFringe(build(0, 1000, 2, -1), build(0, 1000, 3, 999), math.MaxInt64) {
		panic("same-fringe missed a difference")
	}
	// The unit is one leaf compared: whole trees while that many are left, then a prefix.
	ns := p.measure(1, 1, int64(n), func(count int64) time.Duration {
		t0 := time.Now()
		for left := count; left > 0; left -= int64(n) {
			limit := int64(math.MaxInt64)
			if left < int64(n) {
				limit = left
			}
			if !sameFringe(a, b, limit) {
				panic("equal fringes compared unequal")
			}
		}
		return time.Since(t0)
	})
	row("same-fringe", n, "ns-per-leaf", median(ns), "ns",
		note(fmt.Sprintf("median of %d; two walker goroutines sending on unbuffered channels", len(ns))))
}

func rssBytes() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "VmRSS:") {
			fields := strings.Fields(line[6:])
			kb, err := strconv.ParseInt(fields[0], 10, 64)
			if err != nil {
				return -1
			}
			return kb * 1024
		}
	}
	return -1
}

func settle() {
	for i := 0; i < 3; i++ {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
	}
}

func memory(n int) {
	gate := make(chan struct{})
	var started sync.WaitGroup
	// Warm the scheduler up with a few goroutines, so that the reading before holds its structures.
	started.Add(16)
	for i := 0; i < 16; i++ {
		go func() { started.Done(); <-gate }()
	}
	started.Wait()
	settle()
	before := rssBytes()
	started.Add(n)
	for i := 0; i < n; i++ {
		go func() { started.Done(); <-gate }()
	}
	started.Wait()
	time.Sleep(50 * time.Millisecond)
	settle()
	after := rssBytes()
	row("memory", n, "rss-bytes-per-coroutine", float64(after-before)/float64(n), "B",
		note(fmt.Sprintf("VmRSS %d -> %d kB; goroutines blocked receiving on one channel; %d goroutines live",
			before/1024, after/1024, runtime.NumGoroutine())))
	close(gate)
}

// main takes MODE [--quick] [N...]: bench runs the fiber chain and the same fringe, then the switch
// ring for each N; switch only the ring for each N; memory one reading for each N (run-peers.sh gives
// one N per process, so each reading is from a fresh process).
func main() {
	args := os.Args[1:]
	if len(args) == 0 || (args[0] != "bench" && args[0] != "switch" && args[0] != "memory") {
		fmt.Fprintln(os.Stderr, "usage: goroutines-peer bench|switch|memory [--quick] [N...]")
		os.Exit(2)
	}
	quick := false
	var counts []int
	for _, a := range args[1:] {
		if a == "--quick" {
			quick = true
			continue
		}
		n, err := strconv.Atoi(a)
		if err != nil || n <= 0 {
			fmt.Fprintf(os.Stderr, "counts must be positive integers: %q\n", a)
			os.Exit(2)
		}
		counts = append(counts, n)
	}
	p := newPlan(quick)
	switch args[0] {
	case "bench":
		for _, n := range chainLengths {
			fiberChain(p, n)
		}
		for _, n := range counts {
			switchRing(p, n)
		}
		for _, n := range fringeLeaves {
			sameFringeBench(p, n)
		}
	case "switch":
		for _, n := range counts {
			switchRing(p, n)
		}
	case "memory":
		for _, n := range counts {
			memory(n)
		}
	}
}

# SPDX-License-Identifier: GPL-2.0-or-later
# Checks of a run on many ranks, from its JSON (t7001-mpi.sh).  Each check
# prints "ok" or one line saying what is wrong; the script's first argument
# names the check, the second the JSON file, the rest its parameters.
import json
import sys


def runs(path):
    return [json.loads(line) for line in open(path) if line.strip()]


def one_run(path):
    rs = runs(path)
    if len(rs) != 1:
        sys.exit("%d runs in %s, want 1" % (len(rs), path))
    return rs[0]


def phases(run, names=None):
    return [p for p in run["phases"] if names is None or p["name"] in names]


def check_model(path, ranks):
    """One run by rank 0 with per-rank rows whose sums are the aggregate."""
    ranks = int(ranks)
    run = one_run(path)
    m = run.get("mpi")
    if not m or m.get("ranks") != ranks or len(m.get("hosts", [])) != ranks:
        return "mpi block %r, want %d ranks and hosts" % (m, ranks)
    if m.get("layout") != "private":
        return "layout %r" % m.get("layout")
    if not run["config"]["dir"].endswith("/rank-00000"):
        return "rank 0's directory %r is not DIR/arraybench.ID/rank-00000" % run["config"]["dir"]
    for p in phases(run):
        rows = p.get("per_rank") or []
        if [r["rank"] for r in rows] != list(range(ranks)):
            return "%s: per-rank rows %r" % (p["name"], [r.get("rank") for r in rows])
        for field in ("bytes", "ops", "workers"):
            if sum(r[field] for r in rows) != p[field]:
                return "%s: the ranks' %s add to %d, the aggregate has %d" % (
                    p["name"], field, sum(r[field] for r in rows), p[field])
        # The aggregate's span: the latest stop less the earliest start.
        span = max(r["stop_s"] for r in rows) - min(r["start_s"] for r in rows)
        if abs(span - p["elapsed_s"]) > 1e-3 + 1e-3 * p["elapsed_s"]:
            return "%s: the ranks span %.6f s, the aggregate %.6f s" % (p["name"], span, p["elapsed_s"])
        if p["unit"].startswith("KiB"):
            want = p["bytes"] / 1024.0 / p["elapsed_s"]
        else:
            want = p["ops"] / p["elapsed_s"]
        if p.get("rate") is not None and abs(p["rate"] - want) > 1e-3 * want:
            return "%s: rate %r, work over the span gives %r" % (p["name"], p["rate"], want)
        lat = (p.get("latency_ns") or {}).get("samples")
        if lat is not None and lat != p["ops"]:
            return "%s: the merged histogram holds %r operations, the ranks did %d" % (p["name"], lat, p["ops"])
        for r in rows:
            if r["start_s"] < -0.05 or r["stop_s"] < r["start_s"]:
                return "%s: rank %d starts at %.6f and stops at %.6f" % (p["name"], r["rank"], r["start_s"], r["stop_s"])
    return "ok"


def check_spread(path, phase, most, least):
    """The start spread of a phase lies in [least, most] (seconds)."""
    run = one_run(path)
    p = phases(run, [phase])
    if not p:
        return "no %s result" % phase
    s = p[0].get("start_spread_s")
    if s is None or not float(least) <= s <= float(most):
        return "%s: start spread %r, want %s..%s s" % (phase, s, least, most)
    return "ok"


def check_waits(path, phase, late, least):
    """Every rank but `late` waited at least `least` seconds at the barrier."""
    run = one_run(path)
    p = phases(run, [phase])[0]
    waits = {r["rank"]: r["barrier_wait_s"] for r in p["per_rank"]}
    short = {r: w for r, w in waits.items() if r != int(late) and w < float(least)}
    if short or waits[int(late)] >= float(least):
        return "%s: barrier waits %r, want all but rank %s at least %s s" % (phase, waits, late, least)
    return "ok"


def check_bound(path, most):
    """Every result's clock bound is under `most` seconds, and the run's
    mpi block holds the largest."""
    run = one_run(path)
    bounds = [p["clock_bound_s"] for p in phases(run)]
    if not bounds or max(bounds) > float(most):
        return "clock bounds %r" % bounds
    if abs(run["mpi"]["clock_bound_s"] - max(bounds)) > 1e-12:
        return "the run's clock bound %r is not its results' largest %r" % (run["mpi"]["clock_bound_s"], max(bounds))
    return "ok"


def check_one_rank(path_mpi, path_plain):
    """One rank under MPI: the same phases as plain arraybench, one per-rank
    row each whose figures are the aggregate's."""
    a, b = one_run(path_mpi), one_run(path_plain)
    if [p["name"] for p in phases(a)] != [p["name"] for p in phases(b)]:
        return "phases %r vs %r" % ([p["name"] for p in phases(a)], [p["name"] for p in phases(b)])
    if "mpi" in b or any(p.get("per_rank") for p in phases(b)):
        return "plain arraybench wrote ranks"
    if a["mpi"]["ranks"] != 1:
        return "ranks %r" % a["mpi"]["ranks"]
    for p in phases(a):
        rows = p["per_rank"]
        if len(rows) != 1 or rows[0]["bytes"] != p["bytes"] or rows[0]["ops"] != p["ops"]:
            return "%s: rows %r" % (p["name"], rows)
        if p.get("rate") and abs(rows[0]["rate"] - p["rate"]) > 1e-6 * p["rate"]:
            return "%s: the rank's rate %r, the aggregate %r" % (p["name"], rows[0]["rate"], p["rate"])
    return "ok"


def check_stonewall(path, slow):
    """Streams on many ranks: the stonewall falls at the first end of any
    rank's, so the slow rank's stream had done only part of its work by
    then, and the first to end all of its."""
    run = one_run(path)
    p = phases(run, ["sweep"])[0]
    w = p["per_worker"]
    slow = int(slow)
    if not all(x.get("bytes_at_stonewall") is not None for x in w):
        return "a stream without its work at the stonewall: %r" % w
    first = min(range(len(w)), key=lambda i: p["per_rank"][i]["stop_s"])
    if w[first]["bytes_at_stonewall"] != w[first]["bytes"]:
        return "the first stream to end (rank %d) had %d of %d at the stonewall" % (
            first, w[first]["bytes_at_stonewall"], w[first]["bytes"])
    if not w[slow]["bytes_at_stonewall"] < 0.9 * w[slow]["bytes"]:
        return "rank %d's stream had %d of %d at the stonewall: its own end, not the first anywhere" % (
            slow, w[slow]["bytes_at_stonewall"], w[slow]["bytes"])
    if p["min_bytes_at_stonewall"] != min(x["bytes_at_stonewall"] for x in w):
        return "min_bytes_at_stonewall %r" % p["min_bytes_at_stonewall"]
    return "ok"


def check_families(path, ranks, rate_start, factor):
    """The database families on many ranks: every row's per-rank rows add
    up to it, and each curve step offered the sum of the ranks' rates."""
    ranks = int(ranks)
    run = one_run(path)
    names = set()
    for p in phases(run):
        test = (p.get("key") or {}).get("test")
        names.add(p["name"])
        if test == "sizing":
            continue
        rows = p.get("per_rank") or []
        if len(rows) != ranks:
            return "%s %s: %d per-rank rows" % (p["name"], test, len(rows))
        if sum(r["ops"] for r in rows) != p["ops"]:
            return "%s %s: the ranks' operations add to %d, the row has %d" % (
                p["name"], test, sum(r["ops"] for r in rows), p["ops"])
        if p["name"] == "latency-curve":
            n = int(test.split()[1])
            want = ranks * float(rate_start) * float(factor) ** (n - 1)
            if abs(p["offered_rate"] - want) > 1e-6 * want:
                return "%s: offered %r, want the ranks' sum %r" % (test, p["offered_rate"], want)
    for want in ("wal", "oltp", "latency-curve"):
        if want not in names:
            return "no %s rows" % want
    return "ok"


checks = {"families": check_families, "stonewall": check_stonewall, "model": check_model, "spread": check_spread, "waits": check_waits, "bound": check_bound,
          "one-rank": check_one_rank}
if __name__ == "__main__":
    try:
        print(checks[sys.argv[1]](*sys.argv[2:]))
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        print("cannot check: %s: %s" % (type(e).__name__, e))

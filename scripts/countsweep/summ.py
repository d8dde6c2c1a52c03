#!/usr/bin/env python3
"""Tabulates the checks of run.py's results: right/total per check.
usage: summ.py SHAPES.json RESULTS.json [-v]"""
import json
import sys

shapes = {s["i"]: s for s in json.load(open(sys.argv[1]))}
res = json.load(open(sys.argv[2]))
verbose = "-v" in sys.argv
checks = {}


def mark(name, ok, why=""):
    r, t, bad = checks.get(name, (0, 0, []))
    checks[name] = (r + (1 if ok else 0), t + 1, bad + ([] if ok else [why]))


tot = {"nob_rcu": 0, "nob_req": 0, "full_rcu": 0, "full_req": 0}
for s in res:
    sh = shapes[s["shape"]]
    full = sh["full"]["rcu"]
    for x in s["runs"]:
        tag = "shape %d %s %s %s" % (s["shape"], x["kind"], x.get("flag", ""), x.get("frac", ""))
        if x["kind"] == "walk":
            mark("G1 walk lists the children", x["ok"], tag + " " + "; ".join(x["probs"]))
            mark("G2 walk RCU <= full read + 0.5", x["rcu"] <= full + 0.5, tag + " %.1f vs %.1f" % (x["rcu"], full))
            mark("F  no key read twice (walk)", x["dupkeys"] == 0, tag + " %d keys twice" % x["dupkeys"])
            continue
        if x["kind"] == "leaf":
            mark("H  --prefix on a leaf: one Query, all items", x["ok"], tag + " " + "; ".join(x["probs"]))
            continue
        mark("A  counts exact where given, the rest marked", x["ok"], tag + " " + "; ".join(x["probs"][:2]))
        if x["whole"]:
            d = x["doc"] or {}
            mark("A2 all counted, not said partial (info: a stop may not know the level ended)", not (d.get("countsPartial") or d.get("childrenPartial")), tag)
        mark("F  no key read twice (count)", x["dupkeys"] == 0, tag + " %d keys twice" % x["dupkeys"])
        doc = x["doc"] or {}
        partial = bool(doc.get("countsPartial") or doc.get("childrenPartial"))
        err = x["stderr"]
        if x["kind"] == "count":
            tot["nob_rcu"] += x["rcu"]
            tot["nob_req"] += x["queries"]
            tot["full_rcu"] += full
            tot["full_req"] += sh["full"]["requests"]
            mark("B  no budget: RCU <= full read + 0.5", x["rcu"] <= full + 0.5, tag + " %.1f vs %.1f (%d queries vs %d)" % (x["rcu"], full, x["queries"], sh["full"]["requests"]))
            mark("B2 no budget: whole, exit 0", x["whole"] and x["rc"] == 0, tag)
            continue
        b = x["budget"]
        said = any("past the budget" in l or "heavier" in l for l in err)
        mark("C  budget: billed <= budget + 0.5 (or said why)", x["rcu"] <= b + 0.5 or said, tag + " %.1f of %.1f" % (x["rcu"], b))
        mark("C2 budget: billed <= budget + 0.5 (strict)", x["rcu"] <= b + 0.5, tag + " %.1f of %.1f%s" % (x["rcu"], b, " (said)" if said else ""))
        stopline = err[-1] if err else ""
        if partial or x["rc"] == 3:
            ok = x["rc"] == 3 and partial and len(err) == 2 and "run again" in stopline and "RCU" in stopline
            mark("D  a stop exits 3 with one line (spent, partial, how on)", ok, tag + " rc=%d partial=%s lines=%d" % (x["rc"], partial, len(err)))
        else:
            mark("D  a stop exits 3 with one line (spent, partial, how on)", x["rc"] == 0, tag + " rc=%d" % x["rc"])
        if b >= full + 0.5:
            mark("E  budget >= full read + 0.5 counts whole", x["whole"] and x["rc"] == 0, tag + " budget %.1f full %.1f: spent %.1f in %d, rc %d" % (b, full, x["rcu"], x["queries"], x["rc"]))
        if x["frac"] == 1.0:
            mark("E2 budget = full read counts whole (info)", x["whole"], tag + " spent %.1f of %.1f" % (x["rcu"], b))

for name in sorted(checks):
    r, t, bad = checks[name]
    print("%-58s %4d/%-4d" % (name, r, t))
    if verbose:
        for b in bad[:40]:
            print("      ", b)
print("no budget, all shapes: %.1f RCU in %d queries; full reads %.1f RCU in %d" % (tot["nob_rcu"], tot["nob_req"], tot["full_rcu"], tot["full_req"]))

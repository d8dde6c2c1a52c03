#!/usr/bin/env python3
"""Runs dynascope children on every shape through the logging proxy and checks it.

usage: run.py SHAPES.json BINARY OUT.json [shape-index ...]
The proxy (proxy.py) listens at $COUNTSWEEP_PROXY (http://127.0.0.1:20871);
the binary runs in an empty temporary home, sealed from your configuration."""
import json
import os
import subprocess
import sys
import tempfile
import urllib.request
from collections import Counter

SHAPES, BIN, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
ONLY = set(int(x) for x in sys.argv[4:])
PROXY = os.environ.get("COUNTSWEEP_PROXY", "http://127.0.0.1:20871")
FRACS = [0.005, 0.01, 0.05, 0.25, 0.5, 1.0, 1.5]
HOME = tempfile.mkdtemp(prefix="countsweep")
ENV = dict(os.environ, HOME=HOME, XDG_CONFIG_HOME=os.path.join(HOME, ".config"),
           AWS_ACCESS_KEY_ID="x", AWS_SECRET_ACCESS_KEY="x", AWS_REGION="us-east-1", NO_COLOR="1")
for k in list(ENV):
    if k.startswith("DYNASCOPE_") or k in ("AWS_PROFILE", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"):
        del ENV[k]


def dump():
    return json.loads(urllib.request.urlopen(PROXY + "/__dump").read())


def run(sh, extra):
    args = [BIN, "children", "--endpoint-url", PROXY, "--region", "us-east-1", "--table", sh["table"],
            "--pk", sh["pk"], "--delimiter", sh["delim"], "--output", "json"] + extra
    if sh["index"]:
        args += ["--index", sh["index"]]
    dump()
    p = subprocess.run(args, capture_output=True, text=True, env=ENV, timeout=600)
    log = dump()
    doc = None
    try:
        doc = json.loads(p.stdout)
    except Exception:
        pass
    keys = Counter()
    for e in log:
        if e.get("op") in ("Query", "Scan"):
            for k in e.get("keys", []):
                keys[k] += 1
    dup = sum(1 for k, v in keys.items() if v > 1)
    reads = [e for e in log if e.get("op") in ("Query", "Scan")]
    return {"args": extra, "rc": p.returncode, "stderr": p.stderr.strip().splitlines(), "doc": doc,
            "rcu": sum((e.get("rcu") or 0) for e in log), "requests": len(log), "queries": len(reads),
            "ops": Counter(e.get("op") for e in log), "dupkeys": dup, "keysread": len(keys)}


def judge_children(sh, doc):
    """(exact_ok, whole, problems): counts equal the oracle where given; the
    rest marked; whole = every child listed and counted."""
    want = {(c["name"], c["isItem"]): c["count"] for c in sh["children"]}
    probs = []
    if doc is None:
        return False, False, ["no document"]
    got = {}
    marked_partial = bool(doc.get("countsPartial") or doc.get("childrenPartial"))
    for c in doc.get("children", []):
        if c.get("self"):
            continue
        key = (c["name"], bool(c.get("isItem")))
        got[key] = c
        if key not in want:
            probs.append("unknown child %r" % (key,))
            continue
        if "count" in c and c["count"] is not None:
            if c["count"] != want[key]:
                probs.append("count %r: %s want %s" % (key, c["count"], want[key]))
        elif not c.get("uncounted") and not key[1]:
            probs.append("no count, not marked uncounted: %r" % (key,))
    missing = [k for k in want if k not in got]
    if missing and not doc.get("childrenPartial"):
        probs.append("%d children missing, not marked childrenPartial (first %r)" % (len(missing), missing[0]))
    counted = sum(1 for k, c in got.items() if k in want and c.get("count") == want[k])
    whole = not missing and counted == len(want)
    if not whole and not marked_partial:
        probs.append("not whole, not marked partial")
    return not probs, whole, probs


def judge_walk(sh, doc):
    want = {(c["name"], c["isItem"]) for c in sh["children"]}
    if doc is None:
        return False, ["no document"]
    got = {(c["name"], bool(c.get("isItem"))) for c in doc.get("children", []) if not c.get("self")}
    probs = []
    if got != want:
        probs.append("children differ: missing %d extra %d %r %r" % (len(want - got), len(got - want), sorted(want - got)[:2], sorted(got - want)[:2]))
    return not probs, probs


shapes = json.load(open(SHAPES))
results = []
for sh in shapes:
    if ONLY and sh["i"] not in ONLY:
        continue
    full = sh["full"]["rcu"]
    res = {"shape": sh["i"], "runs": []}
    base = ["--prefix", sh["prefix"]] if sh["prefix"] else []
    # walk without --count
    r = run(sh, base)
    ok, probs = judge_walk(sh, r["doc"])
    r.update(kind="walk", ok=ok, probs=probs, over_full=r["rcu"] - full)
    res["runs"].append(r)
    # leaf level opened directly: one Query
    if sh.get("leafchild"):
        r = run(sh, ["--prefix", sh["leafchild"][0]])
        n = len(r["doc"]["children"]) if r["doc"] else -1
        r.update(kind="leaf", ok=(r["queries"] == 1 and n == sh["leafchild"][1] and r["rc"] == 0),
                 probs=["queries=%d children=%d want %d" % (r["queries"], n, sh["leafchild"][1])])
        res["runs"].append(r)
    # count, no budget (the default --count-budget is 1000: give one past the full read)
    r = run(sh, base + ["--count", "--count-budget", str(max(1000, full * 4 + 100))])
    ok, whole, probs = judge_children(sh, r["doc"])
    r.update(kind="count", ok=ok, whole=whole, probs=probs, over_full=r["rcu"] - full)
    res["runs"].append(r)
    for flag in ("--count-budget", "--max-rcu"):
        for fr in FRACS + ["full+0.5"]:
            b = full + 0.5 if fr == "full+0.5" else max(0.5, round(full * fr, 1))
            r = run(sh, base + ["--count", flag, str(b)])
            ok, whole, probs = judge_children(sh, r["doc"])
            r.update(kind="budget", flag=flag, frac=fr, budget=b, ok=ok, whole=whole, probs=probs,
                     over_budget=r["rcu"] - b, over_full=r["rcu"] - full)
            res["runs"].append(r)
    print("shape %d done: %s" % (sh["i"], " ".join("%s%s:%s%.1f/%d%s" % (x["kind"][0], (str(x.get("frac", 0))) if x["kind"] == "budget" else "", "" if x["ok"] else "!", x["rcu"], x["requests"], "" if x["rc"] == 0 else " rc%d" % x["rc"]) for x in res["runs"])), flush=True)
    results.append(res)
json.dump(results, open(OUT, "w"), ensure_ascii=False, indent=1)

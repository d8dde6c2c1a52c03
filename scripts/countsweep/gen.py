#!/usr/bin/env python3
"""Draws random level shapes from a seed and loads them into dynalite.

usage: gen.py ENDPOINT SEED N OUT.json   (UNIFORM=1: items of one size each)
Every shape is one table (t<seed>_<i>); its level is partition `pk` under
`prefix` (on the table, or on GSI `g` for index shapes). OUT gets the shapes
with their oracle: children, exact counts, and the full read's RCU and
requests (boto3 Query, ReturnConsumedCapacity TOTAL, paged)."""
import json
import os
import math
import random
import sys
import threading
import time

import boto3
from botocore.config import Config

EP, SEED, N, OUT = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
ddb = boto3.client("dynamodb", endpoint_url=EP, region_name="us-east-1",
                   aws_access_key_id="x", aws_secret_access_key="x",
                   config=Config(retries={"max_attempts": 10}, max_pool_connections=8))

NAMES_MB = ["東京", "café", "Ωmega", "naïve", "日本語", "🍕pizza", "Zürich", "İstanbul", "ß", "한국"]
DELIMS = ["#", "|", "/", "::"]


def u8(s):
    return s.encode("utf-8")


def child_names(r, n, delim):
    style = r.choice(["alpha", "numeric", "multibyte", "mixed"])
    names = set()
    while len(names) < n:
        k = len(names)
        if style == "alpha":
            nm = "".join(r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(r.randint(2, 8)))
        elif style == "numeric":
            nm = r.choice([str(r.randint(0, 99999)), "%05d" % r.randint(0, 99999),
                           "%d.%d" % (r.randint(0, 99), r.randint(0, 9)), "-%d" % r.randint(1, 999),
                           "%d" % (10 ** r.randint(0, 6))])
        elif style == "multibyte":
            nm = r.choice(NAMES_MB) + str(k)
        else:
            nm = r.choice([r.choice(NAMES_MB), str(r.randint(0, 999)), "x" * r.randint(1, 3)]) + str(r.randint(0, 999))
        if delim in nm or any(c in nm for c in "#|/:"):
            continue
        names.add(nm)
    return sorted(names, key=u8), style


def counts_for(r, n):
    kind = r.choice(["tiny", "power", "onehuge", "dense", "uniform"])
    if kind == "tiny":
        c = [r.randint(1, 3) for _ in range(n)]
    elif kind == "power":
        c = [min(3000, max(1, int(r.paretovariate(1.2)))) for _ in range(n)]
    elif kind == "onehuge":
        c = [r.randint(1, 4) for _ in range(n)]
        c[r.randrange(n)] = r.randint(500, 3000)
    elif kind == "dense":
        m = r.randint(20, 120)
        c = [m for _ in range(n)]
    else:
        c = [r.randint(1, 200) for _ in range(n)]
    return c, kind


def size_fn(r):
    kind = r.choice(["small", "medium", "mixed", "big", "small"])
    if os.environ.get("UNIFORM"):
        fixed = r.choice([120, 280, 1000, 2500, 9000])
        return "uniform%d" % fixed, lambda: fixed
    if kind == "small":
        return kind, lambda: r.randint(50, 300)
    if kind == "medium":
        return kind, lambda: r.randint(1000, 3000)
    if kind == "big":
        return kind, lambda: r.randint(10000, 40000)
    return kind, lambda: r.choice([r.randint(50, 200)] * 8 + [r.randint(2000, 40000)])


def draw(i):
    r = random.Random(SEED * 1000 + i)
    delim = r.choice(DELIMS)
    depth = r.randint(1, 4)
    n = max(1, min(400, int(math.exp(r.uniform(0, math.log(400))))))
    names, nstyle = child_names(r, n, delim)
    counts, ckind = counts_for(r, n)
    skind, size = size_fn(r)
    heavy = r.choice(["none", "first", "middle", "last", "none"])
    if os.environ.get("UNIFORM"):
        heavy = "none"
    index = r.random() < 0.3
    # the prefix: depth-1 segments above the level
    segs = [r.choice(["org", "A", "2024", "東", "x1", "ÄÖ", "00"]) + str(r.randint(0, 9)) for _ in range(depth - 1)]
    prefix = "".join(s + delim for s in segs)
    # cap the level: items and bytes
    avg = sum(size() for _ in range(200)) / 200
    cap_items = 6000
    cap_bytes = 5_000_000
    tot = sum(counts)
    scale = min(1.0, cap_items / tot, cap_bytes / (tot * (avg + 60)))
    if scale < 1:
        counts = [max(1, int(c * scale)) for c in counts]
    # each child: a leaf item (count 1, sometimes) or a subtree of 0-2 more levels
    items = []  # (sk, size)
    children = {}
    for nm, c in zip(names, counts):
        if c == 1 and r.random() < 0.5:
            items.append((prefix + nm, size()))
            children[nm] = {"count": 1, "isItem": True}
            continue
        sub = r.randint(0, 2)
        children[nm] = {"count": c, "isItem": False}
        for j in range(c):
            parts = [nm]
            for _ in range(sub):
                parts.append(r.choice(["a", "b", "c", "Δ", "9"]) + str(r.randint(0, 3)))
            parts.append("%06d" % j if r.random() < 0.7 else "i%d" % j)
            items.append((prefix + delim.join(parts), size()))
    # dedupe keys (subtree parts may repeat)
    seen = {}
    for sk, sz in items:
        seen[sk] = sz
    items = sorted(seen.items(), key=lambda kv: u8(kv[0]))
    # recount children from keys (the oracle)
    children = {}
    for sk, _ in items:
        rest = sk[len(prefix):]
        if delim in rest:
            nm = rest.split(delim, 1)[0]
            ch = children.setdefault(nm + "\0p", {"name": nm, "isItem": False, "count": 0})
        else:
            nm = rest
            ch = children.setdefault(nm + "\0i", {"name": nm, "isItem": True, "count": 0})
        ch["count"] += 1
    if heavy != "none" and len(items) > 2:
        pos = {"first": 0, "middle": len(items) // 2, "last": len(items) - 1}[heavy]
        k = min(3, len(items))
        for p in range(max(0, pos - 1), min(len(items), pos - 1 + k)):
            items[p] = (items[p][0], 40000)
    # siblings outside the level (same partition, other prefixes), other partitions
    outside = []
    if prefix:
        outside += [("!" + prefix + "before%d" % j, 100) for j in range(5)]
        outside += [(prefix[:-len(delim)] + "~after%d" % j, 100) for j in range(5)]
    else:
        pass
    return {"i": i, "table": "t%d_%d" % (SEED, i), "index": "gsi" if index else "", "pk": "P%d" % i,
            "prefix": prefix, "delim": delim, "depth": depth, "nchildren_drawn": n, "names": nstyle,
            "counts": ckind, "sizes": skind, "heavy": heavy,
            "items": items, "outside": outside, "children": sorted(children.values(), key=lambda c: (u8(c["name"]), c["isItem"]))}


def pad(n):
    return "p" * max(1, n)


def load(sh):
    t = sh["table"]
    attrs = [{"AttributeName": "PK", "AttributeType": "S"}, {"AttributeName": "SK", "AttributeType": "S"}]
    kw = {}
    if sh["index"]:
        attrs += [{"AttributeName": "GPK", "AttributeType": "S"}, {"AttributeName": "GSK", "AttributeType": "S"}]
        kw["GlobalSecondaryIndexes"] = [{"IndexName": "gsi", "KeySchema": [{"AttributeName": "GPK", "KeyType": "HASH"}, {"AttributeName": "GSK", "KeyType": "RANGE"}],
                                         "Projection": {"ProjectionType": "ALL"}, "ProvisionedThroughput": {"ReadCapacityUnits": 100, "WriteCapacityUnits": 100}}]
    ddb.create_table(TableName=t, AttributeDefinitions=attrs,
                     KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
                     ProvisionedThroughput={"ReadCapacityUnits": 100, "WriteCapacityUnits": 100}, **kw)
    while ddb.describe_table(TableName=t)["Table"]["TableStatus"] != "ACTIVE":
        time.sleep(0.2)
    if sh["index"]:
        while any(g["IndexStatus"] != "ACTIVE" for g in ddb.describe_table(TableName=t)["Table"].get("GlobalSecondaryIndexes", [])):
            time.sleep(0.2)
    reqs = []
    for n, (sk, sz) in enumerate(sh["items"] + sh["outside"]):
        if sh["index"]:
            it = {"PK": {"S": "id%07d" % n}, "SK": {"S": "x"}, "GPK": {"S": sh["pk"]}, "GSK": {"S": sk}}
        else:
            it = {"PK": {"S": sh["pk"]}, "SK": {"S": sk}}
        it["d"] = {"S": pad(sz - len(sk.encode()) - len(sh["pk"]) - 8)}
        reqs.append({"PutRequest": {"Item": it}})
    # another partition beside it
    for n in range(20):
        it = {"PK": {"S": sh["pk"] + "x"}, "SK": {"S": "%s%04d" % (sh["prefix"], n)}, "d": {"S": "q"}}
        if sh["index"]:
            it = {"PK": {"S": "o%04d" % n}, "SK": {"S": "x"}, "GPK": {"S": sh["pk"] + "x"}, "GSK": {"S": "%s%04d" % (sh["prefix"], n)}}
        reqs.append({"PutRequest": {"Item": it}})
    batches = [reqs[j:j + 25] for j in range(0, len(reqs), 25)]

    def work(bs):
        for b in bs:
            pending = {t: b}
            while pending:
                out = ddb.batch_write_item(RequestItems=pending)
                pending = out.get("UnprocessedItems") or {}
    ths = [threading.Thread(target=work, args=(batches[k::4],)) for k in range(4)]
    [x.start() for x in ths]
    [x.join() for x in ths]


def oracle(sh):
    kw = {"TableName": sh["table"], "ReturnConsumedCapacity": "TOTAL"}
    pkn, skn = ("GPK", "GSK") if sh["index"] else ("PK", "SK")
    if sh["index"]:
        kw["IndexName"] = "gsi"
    if sh["prefix"]:
        kw["KeyConditionExpression"] = "#p = :p AND begins_with(#s, :s)"
        kw["ExpressionAttributeNames"] = {"#p": pkn, "#s": skn}
        kw["ExpressionAttributeValues"] = {":p": {"S": sh["pk"]}, ":s": {"S": sh["prefix"]}}
    else:
        kw["KeyConditionExpression"] = "#p = :p"
        kw["ExpressionAttributeNames"] = {"#p": pkn}
        kw["ExpressionAttributeValues"] = {":p": {"S": sh["pk"]}}
    rcu, reqs, n = 0.0, 0, 0
    while True:
        out = ddb.query(**kw)
        reqs += 1
        rcu += out["ConsumedCapacity"]["CapacityUnits"]
        n += out["Count"]
        if "LastEvaluatedKey" not in out:
            break
        kw["ExclusiveStartKey"] = out["LastEvaluatedKey"]
    assert n == len(sh["items"]), (n, len(sh["items"]))
    return {"rcu": rcu, "requests": reqs, "items": n}


shapes = []
for i in range(N):
    sh = draw(i)
    t0 = time.time()
    load(sh)
    sh["full"] = oracle(sh)
    print("shape %d: %s idx=%s prefix=%r delim=%r children=%d items=%d sizes=%s counts=%s heavy=%s full=%s (%.1fs)" % (
        i, sh["table"], sh["index"], sh["prefix"], sh["delim"], len(sh["children"]), len(sh["items"]), sh["sizes"], sh["counts"], sh["heavy"], sh["full"], time.time() - t0), flush=True)
    sh["nitems"] = len(sh["items"])
    sh["maxsize"] = max(s for _, s in sh["items"])
    deep = set()
    for sk, _ in sh["items"]:
        rest = sk[len(sh["prefix"]):]
        if rest.count(sh["delim"]) >= 2:
            deep.add(rest.split(sh["delim"], 1)[0])
    leaves = [c for c in sh["children"] if not c["isItem"] and c["name"] not in deep]
    leaves.sort(key=lambda c: -c["count"])
    sh["leafchild"] = (sh["prefix"] + leaves[0]["name"] + sh["delim"], leaves[0]["count"]) if leaves else None
    del sh["items"], sh["outside"]
    shapes.append(sh)
json.dump(shapes, open(OUT, "w"), ensure_ascii=False, indent=1)

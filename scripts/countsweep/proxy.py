#!/usr/bin/env python3
"""Logging proxy for DynamoDB JSON: forwards to dynalite, records per request
the operation, the request body and the ConsumedCapacity and item keys of the
answer. GET /__dump returns the log as JSON and clears it.

usage: proxy.py LISTEN_PORT DYNALITE_PORT (both on 127.0.0.1)"""
import http.client
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UP_HOST, UP_PORT = "127.0.0.1", int(sys.argv[2])
LOG = []
LOCK = threading.Lock()


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def do_GET(self):
        with LOCK:
            body = json.dumps(LOG).encode()
            LOG.clear()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        n = int(self.headers.get("Content-Length", 0))
        req = self.rfile.read(n)
        hdrs = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
        c = http.client.HTTPConnection(UP_HOST, UP_PORT, timeout=120)
        c.request("POST", self.path, body=req, headers=hdrs)
        r = c.getresponse()
        resp = r.read()
        target = self.headers.get("X-Amz-Target", "")
        entry = {"op": target.split(".")[-1], "status": r.status}
        try:
            rq = json.loads(req)
            entry["req"] = {k: v for k, v in rq.items() if k not in ("Item",)}
        except Exception:
            pass
        try:
            rs = json.loads(resp)
            cc = rs.get("ConsumedCapacity")
            if isinstance(cc, dict):
                entry["rcu"] = cc.get("CapacityUnits", 0)
            elif isinstance(cc, list):
                entry["rcu"] = sum(x.get("CapacityUnits", 0) for x in cc)
            else:
                entry["rcu"] = None
            if "Items" in rs:
                entry["n"] = len(rs["Items"])
                entry["keys"] = [json.dumps({k: it[k] for k in ("PK", "SK", "GPK", "GSK") if k in it}, sort_keys=True) for it in rs["Items"]]
            if "Count" in rs:
                entry["count"] = rs["Count"]
                entry["scanned"] = rs.get("ScannedCount")
            entry["lek"] = "LastEvaluatedKey" in rs
        except Exception:
            pass
        with LOCK:
            LOG.append(entry)
        self.send_response(r.status)
        for k, v in r.getheaders():
            if k.lower() in ("content-length", "connection", "transfer-encoding"):
                continue
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(resp)))
        self.end_headers()
        self.wfile.write(resp)
        c.close()


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()

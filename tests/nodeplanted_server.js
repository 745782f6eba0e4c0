// nodeplanted_server.js: a JSON-RPC server in Node.js for it_profile_node.py,
// run with --perf-basic-prof (perf names its JIT-compiled functions from
// /tmp/perf-PID.map) and --no-turbo-inlining (burn stays a frame of its
// own). Every call runs answerTheCallWithAVeryLongFunctionName... (long on
// purpose: the report must cut it to its column); with PLANT_MS=N it also
// runs burn(), which spins N ms reading the clock, as issue 37's planted
// function did (here about a third of it in burn itself, half under
// performance.now). Prints "listening on 127.0.0.1:PORT".
"use strict";
const http = require("http");
const PLANT_MS = Number(process.env.PLANT_MS || 0);

function burn(ms) {
    const end = performance.now() + ms;
    let x = 0, n = 0;
    while (performance.now() < end)
        for (let i = 0; i < 8; i++)
            x += Math.sqrt(x + n++);
    return x;
}

function answerTheCallWithAVeryLongFunctionNameSoThatTheColumnMustCutIt(req) {
    let s = 0;
    for (let i = 0; i < 300000; i++)
        s += i % 7;
    if (PLANT_MS > 0)
        s += burn(PLANT_MS);
    return {jsonrpc: "2.0", id: req.id === undefined ? null : req.id, result: {ok: s > 0}};
}

const server = http.createServer((rq, rs) => {
    const parts = [];
    rq.on("data", (c) => parts.push(c));
    rq.on("end", () => {
        let req;
        try {
            req = JSON.parse(Buffer.concat(parts).toString());
        } catch (e) {
            req = {id: null};
        }
        const body = JSON.stringify(answerTheCallWithAVeryLongFunctionNameSoThatTheColumnMustCutIt(req));
        rs.writeHead(200, {"Content-Type": "application/json", "Content-Length": Buffer.byteLength(body)});
        rs.end(body);
    });
});
server.listen(0, "127.0.0.1", () => {
    console.log("listening on 127.0.0.1:" + server.address().port);
});

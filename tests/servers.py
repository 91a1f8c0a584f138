"""A real OpenAI-compatible chat server on 127.0.0.1 that records what it receives (stdlib only)."""
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class RecordingChatServer:
    """``with RecordingChatServer(reply) as server:`` serves ``/v1/chat/completions`` on
    ``server.base_url`` and keeps every request body in ``server.requests``.

    Args:
        reply: ``f(request_body) -> str | int``: the assistant message to return, or an HTTP status code
            (e.g. 429, 500) to answer with an error instead. A slow ``reply`` makes clients time out.
    """

    def __init__(self, reply):
        self.reply, self.requests, self._lock = reply, [], threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'

            def _send(self, code, obj):
                body = json.dumps(obj, ensure_ascii=False).encode('utf-8')
                self.send_response(code)
                self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):  # noqa: N802 - http.server API
                length = int(self.headers.get('Content-Length', 0))
                req = json.loads(self.rfile.read(length) or b'{}')
                if not self.path.rstrip('/').endswith('/chat/completions'):
                    return self._send(404, {'error': {'message': f'no route {self.path}'}})
                with outer._lock:
                    outer.requests.append(req)
                content = outer.reply(req)
                if isinstance(content, int):
                    return self._send(content, {'error': {'message': f'scripted status {content}',
                                                          'type': 'scripted', 'code': content}})
                self._send(200, {'id': 'chatcmpl-local', 'object': 'chat.completion', 'created': int(time.time()),
                                 'model': req.get('model'),
                                 'choices': [{'index': 0, 'finish_reason': 'stop',
                                              'message': {'role': 'assistant', 'content': content}}],
                                 'usage': {'prompt_tokens': 1, 'completion_tokens': 1, 'total_tokens': 2}})

            def log_message(self, *args):
                pass

            def handle_one_request(self):
                try:
                    super().handle_one_request()
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a scripted timeout)

        self._httpd = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        self.port = self._httpd.server_address[1]
        self.base_url = f'http://127.0.0.1:{self.port}/v1'
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


class GateAfter:
    """A ``reply`` for :class:`RecordingChatServer` that answers the first ``n`` requests and holds every later one
    until :meth:`release`: a deterministic interruption point (the client is stuck on request ``n + 1``).

    Args:
        n: How many requests to answer before holding.
        reply: ``f(request_body) -> str | int`` for the answered requests (and the held ones once released).
    """

    def __init__(self, n, reply):
        self.n, self.reply = n, reply
        self.answered, self._count, self._lock = 0, 0, threading.Lock()
        self.holding = threading.Event()     # set when request n + 1 arrives and is being held
        self._open = threading.Event()

    def __call__(self, req):
        with self._lock:
            self._count += 1
            held = self._count > self.n
        if held:
            self.holding.set()
            self._open.wait()
        with self._lock:
            self.answered += not held
        return self.reply(req)

    def release(self):
        """Lets every held request (and all later ones) through."""
        self._open.set()

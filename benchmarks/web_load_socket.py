"""A lean WebSocket client for the load benchmark's players: the `websockets` library's
sans-I/O protocol (handshake, framing, masking, close) driven by a plain asyncio Protocol.

The library's asyncio client wraps every message in futures, a queue and an async iterator;
with 500 players on one core that machinery cost more than the game. Here a complete text
message goes straight to a callback, and sending writes the frame at once. Server-to-client
messages may be fragmented; pings are answered by the protocol.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from websockets.client import ClientProtocol
from websockets.frames import Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri


class PlayerSocket(asyncio.Protocol):
    """One client WebSocket. ``on_message`` gets each text message's bytes (UTF-8 JSON);
    ``on_close`` is called once when the connection is gone."""

    def __init__(
        self,
        on_message: Callable[[bytes], None],
        on_close: Callable[[], None],
        max_size: int = 2**22,
    ) -> None:
        self.on_message = on_message
        self.on_close = on_close
        self.max_size = max_size
        self.proto: ClientProtocol | None = None
        self.transport: asyncio.Transport | None = None
        self.opened: asyncio.Future[None] | None = None
        self.closed: asyncio.Future[None] | None = None
        self.parts: list[bytes] = []
        self.headers: dict[str, str] = {}

    async def open(self, url: str, headers: dict[str, str], timeout: float = 60.0) -> None:
        """Connect and finish the opening handshake (raises if the server refuses)."""
        uri = parse_uri(url)
        loop = asyncio.get_running_loop()
        self.proto = ClientProtocol(uri, max_size=self.max_size)
        self.headers = headers
        self.opened = loop.create_future()
        self.closed = loop.create_future()
        await asyncio.wait_for(
            loop.create_connection(lambda: self, uri.host, uri.port), timeout=timeout
        )
        await asyncio.wait_for(asyncio.shield(self.opened), timeout=timeout)

    # ----------------------------------------------------------------- asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport) and self.proto is not None
        self.transport = transport
        request = self.proto.connect()
        for name, value in self.headers.items():
            request.headers[name] = value
        self.proto.send_request(request)
        self._flush()

    def data_received(self, data: bytes) -> None:
        proto = self.proto
        assert proto is not None
        proto.receive_data(data)
        for event in proto.events_received():
            if isinstance(event, Response):
                assert self.opened is not None
                if proto.handshake_exc is not None:
                    if not self.opened.done():
                        self.opened.set_exception(proto.handshake_exc)
                elif not self.opened.done():
                    self.opened.set_result(None)
                continue
            if event.opcode is Opcode.TEXT or event.opcode is Opcode.CONT:
                if event.fin and not self.parts:
                    self.on_message(event.data)
                elif event.fin:
                    self.parts.append(event.data)
                    message, self.parts = b"".join(self.parts), []
                    self.on_message(message)
                else:
                    self.parts.append(event.data)
        self._flush()
        if proto.close_expected() and self.transport is not None:
            self.transport.close()

    def eof_received(self) -> bool | None:
        if self.proto is not None:
            self.proto.receive_eof()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.opened is not None and not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed during the handshake"))
        if self.closed is not None and not self.closed.done():
            self.closed.set_result(None)
        self.on_close()

    # ----------------------------------------------------------------- sending
    def _flush(self) -> None:
        assert self.proto is not None and self.transport is not None
        for chunk in self.proto.data_to_send():
            if chunk:
                self.transport.write(chunk)
            elif self.transport.can_write_eof():
                self.transport.write_eof()

    def send_text(self, text: bytes) -> None:
        """Send one text message (UTF-8 bytes) at once."""
        assert self.proto is not None
        self.proto.send_text(text)
        self._flush()

    async def close(self, timeout: float = 5.0) -> None:
        """Send a close frame and wait for the connection to end."""
        if self.proto is None or self.transport is None or self.closed is None:
            return
        if not self.closed.done():
            try:
                self.proto.send_close(1000)
                self._flush()
            except Exception:  # closing already
                pass
            try:
                await asyncio.wait_for(asyncio.shield(self.closed), timeout)
            except TimeoutError:
                self.transport.close()

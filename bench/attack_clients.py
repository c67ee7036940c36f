#!/usr/bin/env python3
"""Hostile clients for bench/attacks.sh, speaking just enough of the MySQL protocol.

  attack_clients.py preauth HOST PORT CONNECTIONS BYTES
      CONNECTIONS clients that each read the greeting, declare a 16 MiB packet and send BYTES of
      junk behind it, all held open at once; prints how many the proxy closed and how fast.
  attack_clients.py rsa HOST PORT CLIENTS SECONDS
      CLIENTS loops that each log in as an unknown user with caching_sha2_password, get "perform
      full authentication" and send 256 bytes of junk for the proxy to decrypt with its RSA key;
      prints attempts per second and how they ended.
"""
import os
import socket
import struct
import sys
import threading
import time

CLIENT_PROTOCOL_41 = 0x00000200
CLIENT_SECURE_CONNECTION = 0x00008000
CLIENT_PLUGIN_AUTH = 0x00080000


# The attacks come from an address of their own, so that the legitimate client's logins (from
# 127.0.0.1) measure what the attack costs it, not the proxy's delay for the attacking address.
SOURCE = os.environ.get("ATTACK_SOURCE", "127.0.0.2")

def read_packet(sock):
    header = b""
    while len(header) < 4:
        chunk = sock.recv(4 - len(header))
        if not chunk:
            return None, None
        header += chunk
    length = header[0] | header[1] << 8 | header[2] << 16
    payload = b""
    while len(payload) < length:
        chunk = sock.recv(length - len(payload))
        if not chunk:
            return None, None
        payload += chunk
    return header[3], payload


def packet(sequence, payload):
    return struct.pack("<I", len(payload))[:3] + bytes([sequence]) + payload


def preauth(host, port, connections, junk):
    socks, closed, errors = [], 0, {}
    start = time.monotonic()
    for _ in range(connections):
        s = socket.create_connection((host, port), timeout=10, source_address=(SOURCE, 0))
        read_packet(s)
        try:
            s.sendall(b"\xfe\xff\xff\x01" + os.urandom(min(junk, 1 << 16)) * max(1, junk >> 16))
        except OSError:
            pass
        socks.append(s)
    for s in socks:
        try:
            _, payload = read_packet(s)
            if payload and payload[0] == 0xFF:
                code = struct.unpack("<H", payload[1:3])[0]
                errors[code] = errors.get(code, 0) + 1
            if s.recv(1) == b"":
                closed += 1
        except OSError:
            closed += 1
        s.close()
    print(f"preauth: {connections} connections, {junk} junk bytes each: {closed} closed by the proxy,"
          f" errors {errors}, {time.monotonic() - start:.2f} s")


def rsa_attempt(host, port):
    s = socket.create_connection((host, port), timeout=10, source_address=(SOURCE, 0))
    try:
        sequence, greeting = read_packet(s)
        if greeting is None or greeting[0] == 0xFF:
            return "refused at greeting"
        caps = CLIENT_PROTOCOL_41 | CLIENT_SECURE_CONNECTION | CLIENT_PLUGIN_AUTH
        response = struct.pack("<IIB", caps, 1 << 24, 45) + bytes(23) + b"nobody_here\x00" \
            + bytes([32]) + os.urandom(32) + b"caching_sha2_password\x00"
        s.sendall(packet(sequence + 1, response))
        sequence, answer = read_packet(s)
        if answer is None:
            return "closed"
        if answer[:2] != b"\x01\x04":
            return "answer %02x" % answer[0]
        s.sendall(packet(sequence + 1, os.urandom(256)))
        _, final = read_packet(s)
        if final is None:
            return "closed"
        if final[0] == 0xFF:
            return "ERR %d" % struct.unpack("<H", final[1:3])[0]
        return "answer %02x" % final[0]
    finally:
        s.close()


def rsa(host, port, clients, seconds):
    deadline = time.monotonic() + seconds
    outcomes, lock = {}, threading.Lock()

    def loop():
        while time.monotonic() < deadline:
            try:
                outcome = rsa_attempt(host, port)
            except OSError as e:
                outcome = type(e).__name__
            with lock:
                outcomes[outcome] = outcomes.get(outcome, 0) + 1

    threads = [threading.Thread(target=loop) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    total = sum(outcomes.values())
    print(f"rsa: {clients} clients for {seconds} s: {total} attempts ({total / seconds:.0f}/s), outcomes {outcomes}")


if __name__ == "__main__":
    mode, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == "preauth":
        preauth(host, port, int(sys.argv[4]), int(sys.argv[5]))
    elif mode == "rsa":
        rsa(host, port, int(sys.argv[4]), float(sys.argv[5]))
    else:
        sys.exit(f"unknown mode {mode}")

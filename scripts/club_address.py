#!/usr/bin/env python3
"""This computer's address on the local network, the one the phones at the tables will open:
``python scripts/club_address.py`` prints it (``make club`` asks it once and keeps the answer).

How: a UDP socket is "connected" to a private address. For UDP, connect() sends nothing — it
only has the system choose the route, and so the interface and source address it would use to
reach that network; getsockname() reads that address. No packet leaves the computer. Without a
route to any private network (no network at all): 127.0.0.1, which only this computer can open.
"""

from __future__ import annotations

import ipaddress
import socket

#: Private networks (RFC 1918) where a club's router usually is, most common first. Nothing is
#: sent to them; port 9 is the discard port, in case anything ever were.
PROBES = ("192.168.0.1", "10.0.0.1", "172.16.0.1")
FALLBACK = "127.0.0.1"


def lan_address(socket_factory=socket.socket) -> str:
    """The IPv4 address the system would send from to reach a private network (see above), or
    ``FALLBACK``."""
    for probe in PROBES:
        try:
            with socket_factory(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                address = s.getsockname()[0]
        except OSError:  # no route to that network (or no network)
            continue
        try:
            ip = ipaddress.IPv4Address(address)
        except ValueError:
            continue
        if not (ip.is_unspecified or ip.is_loopback or ip.is_link_local):
            return str(ip)
    return FALLBACK


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this computer alone (localhost, 127.x, ::1)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_local_address(host: str) -> bool:
    """Whether ``host`` (an IP address) belongs to this computer now: binding a socket to it
    works only then (binding sends nothing either). A host name is taken on trust."""
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return True
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.bind((str(ip), 0))
    except OSError:
        return False
    return True


if __name__ == "__main__":
    print(lan_address())

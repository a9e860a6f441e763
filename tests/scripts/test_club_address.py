"""scripts/club_address.py: the computer's LAN address, learnt from the route the system would
choose for a private network, without a packet sent."""

from __future__ import annotations

import ipaddress
import socket
import subprocess
import sys

import pytest
from club_address import FALLBACK, PROBES, is_local_address, is_loopback, lan_address

from .conftest import SCRIPTS


class FakeSocket:
    """A UDP socket that answers getsockname() from a script and fails any attempt to send."""

    made: list["FakeSocket"] = []

    def __init__(self, answers: list, family, kind):
        self.answers, self.family, self.kind, self.connected = answers, family, kind, None
        FakeSocket.made.append(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def connect(self, address):
        answer = self.answers.pop(0)
        if isinstance(answer, OSError):
            raise answer
        self.connected, self.answer = address, answer

    def getsockname(self):
        return (self.answer, 54321)

    def send(self, *args):
        raise AssertionError("a packet was sent")

    sendto = sendall = sendmsg = send


def factory(*answers):
    FakeSocket.made = []
    queue = list(answers)
    return lambda family, kind: FakeSocket(queue, family, kind)


def test_the_address_is_the_source_of_the_route_to_a_private_network():
    assert lan_address(factory("192.168.1.20")) == "192.168.1.20"
    (s,) = FakeSocket.made
    assert (s.family, s.kind) == (socket.AF_INET, socket.SOCK_DGRAM)  # UDP: connect() sends nothing
    assert ipaddress.ip_address(s.connected[0]).is_private and s.connected[0] == PROBES[0]


def test_without_a_route_the_next_private_network_is_tried_then_loopback():
    unreachable = OSError(101, "Network is unreachable")
    assert lan_address(factory(unreachable, "10.1.2.3")) == "10.1.2.3"
    assert [s.connected for s in FakeSocket.made] == [None, (PROBES[1], 9)]
    assert lan_address(factory(*[unreachable] * len(PROBES))) == FALLBACK == "127.0.0.1"


@pytest.mark.parametrize("useless", ["0.0.0.0", "127.0.1.1", "169.254.3.4", "not-an-address"])
def test_an_address_no_phone_can_reach_is_not_taken(useless):
    assert lan_address(factory(useless, "192.168.1.20")) == "192.168.1.20"


def test_the_real_answer_is_an_ipv4_address():
    assert isinstance(ipaddress.ip_address(lan_address()), ipaddress.IPv4Address)
    out = subprocess.run([sys.executable, str(SCRIPTS / "club_address.py")], capture_output=True, text=True,
                         check=True, timeout=30).stdout.strip()
    assert isinstance(ipaddress.ip_address(out), ipaddress.IPv4Address)


def test_whether_an_address_is_this_computer_s():
    assert is_local_address("127.0.0.1") and is_local_address(lan_address())
    assert not is_local_address("203.0.113.77")  # TEST-NET-3: nobody's
    assert is_local_address("club.example")  # a name is taken on trust


@pytest.mark.parametrize(("host", "loopback"), [("127.0.0.1", True), ("localhost", True), ("::1", True),
                                                ("192.168.1.20", False), ("club.example", False)])
def test_loopback_hosts(host, loopback):
    assert is_loopback(host) is loopback

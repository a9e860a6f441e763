"""docs/api.md's "Using the API" example works as written: its code block is read, and each
``curl`` in it is sent as it stands to the test client (a token from a director's login, the
tournaments with that token, an export saved to a file, that file imported). Only the placeholders
are filled in: the director's ``NAME`` and ``PASS``, the token (``$TOKEN``) and the ids ``1``. The
shell that wraps the file for the import runs for real, in bash."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import pytest
from django.test import TestCase

from scoring.models import Tournament, TournamentImport
from scoring.services.rounds import round_record

from ..services.test_exports import as_imported, without_time

pytestmark = pytest.mark.django_db

API_DOC = Path(__file__).resolve().parents[3] / "docs" / "api.md"
SITE = "http://127.0.0.1:8000"


def example() -> list[str]:
    """The section's shell block, one command a line (a line ending in ``\\`` or ``|`` goes on)."""
    text = API_DOC.read_text(encoding="utf-8")
    assert text.count("\n## Using the API\n") == 1, "docs/api.md has one section 'Using the API'"
    section = text.split("\n## Using the API\n", 1)[1].split("\n## ", 1)[0]
    assert section.count("```sh\n") == 1, "the section has one shell block: the example"
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    lines: list[str] = []
    for raw in block.splitlines():
        if lines and lines[-1].endswith(("\\", "|")):
            lines[-1] = lines[-1].removesuffix("\\").rstrip() + " " + raw.strip()
        else:
            lines.append(raw.strip())
    return lines


def curl(command: str) -> dict:
    """A ``curl`` command line as a request: method, path, headers, body, output file."""
    args = shlex.split(command, comments=True)
    assert args[0] == "curl"
    out = {"method": None, "headers": {}, "data": None, "output": None, "url": None}
    words = iter(args[1:])
    for word in words:
        if word == "-H":
            key, value = next(words).split(":", 1)
            out["headers"][key.strip()] = value.strip()
        elif word in ("-d", "--data-binary"):
            out["data"] = next(words)
        elif word == "-o":
            out["output"] = next(words)
        elif word == "-X":
            out["method"] = next(words)
        elif word.startswith(SITE):
            out["url"] = word.removeprefix(SITE)
        else:
            raise AssertionError(f"the test does not know this part of the example's curl: {word}")
    out["method"] = out["method"] or ("POST" if out["data"] is not None else "GET")
    return out


def send(client, request: dict, token: str | None, stdin: bytes = b""):
    headers = {k: v.replace("$TOKEN", token or "$TOKEN") for k, v in request["headers"].items()}
    content_type = headers.pop("Content-Type", "application/octet-stream")
    body = stdin if request["data"] == "@-" else (request["data"] or "")
    return client.generic(request["method"], request["url"], body, content_type=content_type, headers=headers)


def copy_import_id(tournament: Tournament) -> int:
    return TournamentImport.objects.get(tournament=tournament).pk


def test_the_api_docs_curl_example_works_as_written(client, director, make_setup, tmp_path):
    s = make_setup("jie_long")
    round_record(actor=s.scorer_actor, table=s.table, body={"points": [2, 12, 34, 18], "leader": 0})
    club = s.tournament.club
    lines = example()
    text = "\n".join(lines)
    assert "/tournaments/1/" in text and '"club": 1' in text and "NAME" in text and "PASS" in text
    filled = {"/tournaments/1/": f"/tournaments/{s.tournament.pk}/", '"club": 1': f'"club": {club.pk}',
              '"username": "NAME"': '"username": "alice"', '"password": "PASS"': '"password": "alice-secret-1"'}

    token, answer, done = None, None, []
    for line in lines:
        for placeholder, value in filled.items():
            line = line.replace(placeholder, value)
        if line.startswith("# {"):   # the answer the example shows
            shown = json.loads(line.removeprefix("# ").replace("…", "x"))
            assert set(shown) == set(answer) in ({"token", "expires_in"}, {"id", "status", "rated", "url"})
            if "expires_in" in shown:
                assert shown["expires_in"] == answer["expires_in"]
            else:   # the import, queued: its URL is the next line's
                assert shown["url"] == "/api/v1/imports/1/" and answer["url"] == f"/api/v1/imports/{answer['id']}/"
                filled["/imports/1/"] = f"/imports/{answer['id']}/"
        elif line.startswith("TOKEN="):
            token = answer["token"]
        elif line.startswith("curl"):
            request = curl(line)
            response = send(client, request, token)
            assert response.status_code == 200, (line, response.content)
            if request["output"]:
                (tmp_path / request["output"]).write_bytes(response.content)
            else:
                answer = response.json()
            done.append(request["url"])
            if request["url"] == "/api/v1/tournaments/":
                listed = answer
            if "/imports/" in request["url"]:
                assert answer["status"] == "done", answer
                copy = Tournament.objects.get(pk=answer["tournament"])
        elif "| curl" in line:
            shell, command = line.split("| curl", 1)
            stdin = subprocess.run(["bash", "-c", shell], cwd=tmp_path, capture_output=True, check=True).stdout
            with TestCase.captureOnCommitCallbacks(execute=True):   # the worker's task, in-process here
                response = send(client, curl("curl" + command), token, stdin)
            assert response.status_code == 202, response.content
            done.append(curl("curl" + command)["url"])
            answer = response.json()
        else:
            raise AssertionError(f"the test does not know this line of the example: {line}")

    assert done == ["/api/v1/auth/token/", "/api/v1/tournaments/", f"/api/v1/tournaments/{s.tournament.pk}/export/",
                    "/api/v1/tournaments/import/", f"/api/v1/imports/{copy_import_id(copy)}/"]
    assert s.tournament.pk in [t["id"] for t in listed["results"]]   # the list the token read
    exported = json.loads((tmp_path / "t.json").read_text())
    assert copy.club == club and not copy.public
    again = client.get(f"/api/v1/tournaments/{copy.pk}/export/", headers={"Authorization": f"Token {token}"}).json()
    assert without_time(again) == without_time(as_imported(exported))

"""A snippet and a passage find a query word where the index holds it after an
acronym: ``HTTPServer`` is ``http`` and ``server`` to the index
(:func:`rubi.index.wordparts.word_parts`), and ``serv`` was not found in it (only a
lower-to-upper change began a word), so the line holding the answer was not shown."""

from __future__ import annotations

from rubi.index.analysis import text_analyzer
from rubi.search.snippet import best_snippet

CODE = """import os
import socket


class HTTPServer(socket.socket):
    def listen(self, port):
        return self.bind(port)
"""


def test_a_code_snippet_shows_the_part_after_an_acronym() -> None:
    assert "serv" in text_analyzer("code").terms(CODE)
    assert best_snippet(CODE, ["serv"], code=True) == "class HTTPServer(socket.socket):"


def test_a_note_snippet_shows_the_part_after_an_acronym() -> None:
    body = "Some intro line.\n\nCall getHTTPResponse to read the answer.\n"
    assert "respons" in text_analyzer("en").terms(body)
    assert best_snippet(body, ["respons"]) == "Call getHTTPResponse to read the answer."


def test_a_run_of_capitals_is_still_one_word() -> None:
    body = "First line.\n\nThe HTTPSERVER constant.\n"
    assert best_snippet(body, ["serv"]) == "First line."

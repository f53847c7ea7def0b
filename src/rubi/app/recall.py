"""Recall: the notes that bear on a prompt, as a short block for the agent's context.

The UserPromptSubmit hook calls :func:`recall` on every prompt. It is the search
``rubi search`` runs (:func:`rubi.app.search`: BM25F, names, the graph walk and the
dense channel, fused), over the project vault's notes, without a re-scan of the vault
(the session-start hook, ``register``, the MCP server and the watcher keep the index
current): one ranking everywhere. Of its first :data:`CANDIDATES` hits, only what
clears a relevance bar is returned: a note must match at least
:data:`MIN_MATCHED_TERMS` of the prompt's content words and :data:`MIN_COVERAGE` of
them (at most :data:`MAX_NEEDED_TERMS`), so a note the graph or the dense channel
alone brought in is not injected on its own; and nothing is when the search as a
whole falls below the relevance floor (:attr:`rubi.search.hits.SearchResult.relevant`,
:func:`rubi.search.reweighting.relevant`: no note holds enough of the prompt's
distinctive words, nor rare ones that seldom meet by chance), unless the prompt is a
long question (:data:`LONG_PROMPT_TERMS`; a prompt of at most
:data:`SHORT_PROMPT_WORDS` written words never is) that was not reduced: a pasted document
(:func:`rubi.search.longquery.reduce_query`) is held to the floor, read on its reduced
query or on that query's words not written as code. Snippets
are read only for the notes shown, through :mod:`rubi.core.safeio`, their frontmatter
split off as the note parser splits it (:func:`rubi.app.pagetext.note_body`).

In a project with a code map the same prompt also searches the code (``scope`` code, the
search ``rubi search --scope code`` runs: a pasted issue reduced, and its headline
searched and fused, :mod:`rubi.search.headline`), and up to :data:`MAX_FILES` files are named,
each with its best-matching part (``path#Lstart-end`` and the symbol): a GitHub issue
or a traceback, the first prompt of many sessions, is about files before any note
exists on it. A file clears the same per-hit bar as a note (:func:`needed_terms` of the
prompt's content words), and the prompt must carry evidence that it is about this code
at all: it is long (more than :data:`LONG_PROMPT_TERMS` content words: an issue, a
log), or it writes a word as code (:func:`rubi.search.longquery.is_identifier`:
``parse_quoted``, ``Config.load``, ``app.py``) and the search's name list matched a
file or symbol of this project (:attr:`rubi.search.hits.SearchResult.named`). A short
question in plain words gets no files: the relevance floor does not hold for code
(:func:`rubi.search.reweighting.relevant`), a source file's comments share common words with
anything ("How often should I change the engine oil in my car?" matched 3 of its 5
content words in one file of jinja, half the question's IDF mass), and a plain word
can be a file's name (``engine`` and ``engine.py``), which the name list always lets
vote. Such a question costs no code search. A long prompt must also name this
project's code somewhere in its whole text (an identifier the code map has as a file,
symbol or module, or the main package as written:
:func:`rubi.app.searching.code_names`, :func:`rubi.search.codenames.project_names`),
else it costs no code search either: another repository's issue shares as many words
with this one's files as its own issues do, so without it every pasted issue got
files; with it, on the development halves (``bench/issue_recall.py --cross``),
another repository's issue got none in 31 of 31 (0 before), and an issue of this
project still named a changed file in 26 of 31 (the same 26). The files' lines are costed
first, from the same ``max_tokens`` budget, so notes cannot crowd them out. Measured by
``bench/issue_recall.py`` (``docs/benchmarks-history.md``, "Recall on issue prompts").

In a process that keeps the index open (the resident engine, ``rubi serve``) a
recall costs a warm search; a cold hook process loads the search stack and the graph
first.
"""

from __future__ import annotations

from rubi.core.lazyregex import Rx
from rubi.core.paths import VaultPaths

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from rubi.index.queryanalysis import QueryAnalysis

__all__ = [
    "CANDIDATES",
    "FILES_HEADER",
    "LONG_PROMPT_TERMS",
    "MAX_FILES",
    "MAX_NEEDED_TERMS",
    "MAX_NOTES",
    "MIN_COVERAGE",
    "MIN_MATCHED_TERMS",
    "SHORT_PROMPT_WORDS",
    "SKIPPED_FOLDERS",
    "SKIPPED_STATUSES",
    "cjk_run_words",
    "content_terms",
    "needed_terms",
    "prompt_terms",
    "prompt_words",
    "recall",
    "written_count",
]


def _ceil(x: float) -> int:
    """``math.ceil`` of ``x`` ≥ 0 (without the ``math`` extension module a hook would
    load for it)."""
    n = int(x)
    return n + (n < x)


MIN_MATCHED_TERMS = 2
"""One shared word ("config") is chance; two are a topic."""
MIN_COVERAGE = 0.3
"""Share of the prompt's content words a note must match (a long prompt may wander)."""
MAX_NEEDED_TERMS = 3
"""A long prompt (a pasted traceback) need not be 30% covered: three shared words do."""
LONG_PROMPT_TERMS = _ceil(MAX_NEEDED_TERMS / MIN_COVERAGE)
"""Content words from which a prompt is long: :func:`needed_terms` stops growing with
it. A long question is held to the three-word bar alone, not to the relevance floor: its
many words no note holds would keep recall silent whatever the vault has on its topic
(on the knowledge-base development halves the floor silenced simonw-til's q018, its
answer first). A prompt long enough to be reduced (a pasted issue, a log) is held to
the floor too: its reduced query keeps only words the index holds, a question's worth,
so that reason does not hold; without it another project's issue got the vault's
README by chance overlap in 14 of 31 development issues. Its frames and identifiers
are the code's, the sentence around them the note's, so its words not written as code
may clear the floor instead (:func:`_prose_relevant`: "the login token expires at
midnight and then this happens:" above a traceback). ``docs/benchmarks-history.md``,
"issue 28: the relevance floor on long prompts, fifteenth pass". Why a long question
is not held to the floor was measured again in the twenty-eighth pass ("issue 28:
recall's long route and the floor"): on 37 development halves the floor would silence
8 more off-topic questions and hide 40 answers recall names; only the prompts the term
count makes long from a few written words are held to it
(:data:`SHORT_PROMPT_WORDS`)."""
MAX_NOTES = 5
CANDIDATES = 20
"""Hits of the search looked at for the bar, best first."""
SKIPPED_FOLDERS = ("sessions/", "modules/", "handoffs/")
"""Recall is for knowledge notes: not captured chats, generated pages or handoffs."""
SKIPPED_STATUSES = ("help",)
"""Nor rubi's own help: a note whose frontmatter says ``status: help`` (the README
``rubi init`` puts in every vault) is found by a search and read as any note, but never
recalled. In a fresh project it is the only note, and recall injected it for issues
pasted as prompts, never of use (``docs/benchmarks-history.md``, "issue 29: small
defects a new user meets, sixteenth pass")."""
HEADER = (
    "rubi project memory has notes related to this request (full text: the rubi read "
    "tool with these ids):\n"
)
HEADER_TOKENS = 40
SNIPPET_CHARS = 160
MAX_FILES = 5
"""Code files named at most. On the development halves of the 34 issue sets (147
issues, 2026-12-07) a changed file was in the first three of recall's code search for
99 of the 117 whose prompt names this project's code and in the first five for 109
(with the headline fused, as now: 119); three lines cost about 60 tokens, five about
100 of the hook's 700 (``docs/benchmarks-history.md``, "issue 28: recall names a
changed file, the headline and five files, twenty-ninth pass")."""
FILES_HEADER = (
    "Files of this project that match this request (rubi code search; the part that "
    "matches best after '#'):\n"
)


def needed_terms(count: int) -> int:
    """How many of a prompt's ``count`` content words a note must match."""
    return max(MIN_MATCHED_TERMS, min(MAX_NEEDED_TERMS, _ceil(MIN_COVERAGE * count)))


def content_terms(analysis: QueryAnalysis, langs: list[str]) -> set[str]:
    """The prompt's content words (:attr:`QueryAnalysis.text`'s terms) in its own
    language's chain among the index's ``langs``
    (:func:`rubi.index.language.query_chain`, the note window's rule), which drops
    that language's function words and stems as the index stemmed its notes. Why:
    read in the English chain, a French question of 12 words kept its "comment",
    "une", "les" as content words and counted as a long prompt (more than
    :data:`LONG_PROMPT_TERMS`), which skips the relevance floor; and its stems were
    not the ones a French note's matched terms hold (``hit.matched``)."""
    return prompt_terms(analysis, langs)[1]


def prompt_terms(analysis: QueryAnalysis, langs: list[str]) -> tuple[str, set[str]]:
    """(the chain, :func:`content_terms`) of a prompt: the chain is what
    :func:`prompt_words` reads its written words in."""
    from rubi.index.language import query_chain

    text = analysis.text
    lang = query_chain(text, langs)
    return lang, set(analysis.terms(text, lang))


def prompt_words(query: str, terms: set[str], lang: str | None = None) -> int:
    """How many content words ``query`` has, for :data:`LONG_PROMPT_TERMS`: its
    ``terms`` (its analysed terms), but a query's CJK bigrams counted as the words
    they make: a Japanese query's as its katakana and Han words
    (:func:`rubi.index.japanese.japanese_words`), any other query's (Chinese, written
    without spaces or script changes) as one word per :data:`CJK_WORD_CHARS`
    characters of each CJK run (:func:`cjk_run_words`). Why: a short Japanese question
    ("パスポートの更新はどこでできますか？") is 16 bigrams, so it counted as a long
    prompt and skipped the relevance floor: recall spoke on 5 of the 6 off-topic
    questions of the Japanese development half; a short Chinese question
    ("小狗总是咬人，应该怎么训练它？", 11 bigrams) did the same. An ASCII query has no CJK:
    its terms, without importing the CJK modules.

    With the prompt's chain ``lang`` (:func:`content_terms`' chain), a prompt that
    counts more than :data:`LONG_PROMPT_TERMS` so but writes at most
    :data:`SHORT_PROMPT_WORDS` words that bring its terms (:func:`written_count`)
    counts those words: outside English a word brings its stem beside its surface and
    its elided forms, so a six-word question counted 11 to 13 and took the long route
    past the relevance floor (``docs/benchmarks-history.md``, "issue 28: recall's long
    route and the floor, twenty-eighth pass")."""
    count = _term_words(query, terms)
    if lang is None or count <= LONG_PROMPT_TERMS:
        return count
    written = written_count(query, terms, lang, stop=SHORT_PROMPT_WORDS + 1)
    return written if written <= SHORT_PROMPT_WORDS else count


def _term_words(query: str, terms: set[str]) -> int:
    """:func:`prompt_words` without ``lang``: ``terms``, CJK bigrams counted as words."""
    if query.isascii():
        return len(terms)
    from rubi.index.analysis import is_cjk

    cjk = _cjk_words(query)
    if not cjk:
        return len(terms)
    return sum(1 for t in terms if not is_cjk(t)) + cjk


def _cjk_words(query: str) -> int:
    """The words of ``query``'s CJK text as :func:`prompt_words` counts them: a
    Japanese query's katakana and Han words, else :func:`cjk_run_words`; 0 for ASCII."""
    if query.isascii():
        return 0
    from rubi.index.japanese import japanese_words

    words = japanese_words(query)
    return len(words) if words else cjk_run_words(query)


SHORT_PROMPT_WORDS = 6
"""Written words up to which a prompt is short whatever its term count
(:func:`prompt_words`). Chosen on the development halves of the notes sets
(2026-12-07): of the prompts whose terms make them long but whose written words do
not, those of at most 6 words were 9 off-topic and 5 on-topic questions in 69
halves, and on the 37 halves run recall named no answer below the floor for any of
them; at 7 words the class holds 21 on-topic questions, and the floor would have
hidden an answer recall named (a seven-word Dutch question, its answer first)."""


def written_count(query: str, terms: set[str], lang: str, *, stop: int = 0) -> int:
    """How many written words of ``query`` (:func:`rubi.search.longquery.written_words`,
    once each, in order) bring a term of ``terms`` no earlier word brought, analysed in
    chain ``lang``, plus its CJK words as :func:`prompt_words` counts them (its CJK
    bigrams are left out of ``terms`` for the loop); the loop ends when the count
    reaches ``stop`` (> 0). A word that becomes its stem and its surface, or an elided
    article and its noun (``l'impasto``: ``impast``, ``l'impasto``), counts once; a
    word written as code (:func:`rubi.search.longquery.is_identifier`:
    ``Locale.get_display_name``) counts each term it brings, its parts being the code's
    words (a pasted issue's title of two identifiers is not a four-word question)."""
    from rubi.index.analysis import analyze, is_cjk
    from rubi.search.longquery import is_identifier, written_words

    count = _cjk_words(query)
    plain = {t for t in terms if not is_cjk(t)}
    for word in written_words(query):
        if not plain or (stop and count >= stop):
            break
        brought = plain.intersection(analyze(word, lang))
        if brought:
            count += len(brought) if is_identifier(word) else 1
            plain -= brought
    return count


CJK_WORD_CHARS = 2
"""Characters per word of unsegmented Chinese, for counting a prompt's words: most
Chinese words are one or two characters long, two-character words the most common,
so a run of ``n`` Han characters is about ``n / 2`` words, not its ``n - 1`` bigrams
(an estimate for a length bar, not a segmentation)."""

_CJK_RUN = Rx(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")
"""A run of the characters :func:`rubi.index.analysis.is_cjk` calls CJK (compiled for the
first prompt that is not ASCII: 1.5 ms of every hook that imports the facade)."""


def cjk_run_words(text: str) -> int:
    """About how many words the CJK runs of ``text`` hold: each run of two or more CJK
    characters (Han, kana, Hangul syllables: the runs the index cuts into bigrams)
    ``ceil(len / CJK_WORD_CHARS)``, but a run of Hangul one word (Korean spaces its
    words: ``압축하려면`` is one word with its ending); 0 when ``text`` has none. Why:
    counted by characters, a short Korean question ("축구에서 오프사이드는 정확히
    언제 선언되나요?", five words) was eleven, a long prompt, and recall skipped the
    relevance floor on it."""
    if text.isascii():
        return 0
    runs = _CJK_RUN.findall(text)
    return sum(
        1 if _has_hangul(run) else _ceil(len(run) / CJK_WORD_CHARS) for run in runs if len(run) > 1
    )


def _has_hangul(text: str) -> bool:
    """Whether ``text`` holds a Hangul syllable (U+AC00-U+D7AF): a Korean run. A loop,
    not a character class (compiled in every cold recall)."""
    return any("\uac00" <= ch <= "\ud7af" for ch in text)


def recall(paths: VaultPaths, prompt: str, *, max_tokens: int) -> str | None:
    """The recall block for ``prompt``: one line per note that clears the bar
    (``- [type] title (id ID): snippet``), at most :data:`MAX_NOTES` notes, then (in a
    project with a code map) one line per code file that clears it (``- path#Lx-y
    (symbol)``, at most :data:`MAX_FILES`), each list under its header, about
    ``max_tokens`` tokens (chars/4) in all; None when nothing clears it.

    Raises:
        RubiError, OSError, whoosh errors: the index cannot be read (the hook fails
        open).
    """
    from rubi.app.searching import indexed
    from rubi.core.tokens import estimate_tokens
    from rubi.index.queryanalysis import QueryAnalysis
    from rubi.index.warm import index_at
    from rubi.search.limits import fit_query
    from rubi.search.longquery import reduce_query

    if not indexed(paths):
        return None  # never indexed: a hook does not index a whole vault
    # A long prompt (a pasted issue) is searched for its discriminative words, and a
    # note must match enough of those, not of every word of the prompt.
    prompt = fit_query(prompt)
    index = index_at(paths.whoosh_dir)
    query = reduce_query(prompt, index)
    analysis = QueryAnalysis(query)  # one analysis for the bar and both searches
    lang, terms = prompt_terms(analysis, index.languages())
    if len(terms) < MIN_MATCHED_TERMS:
        return None
    short = prompt_words(query, terms, lang) <= LONG_PROMPT_TERMS
    files = (
        _file_lines(paths, prompt, analysis, terms, short) if paths.project_root is not None else []
    )
    budget = max_tokens - HEADER_TOKENS
    if files:
        budget -= estimate_tokens(FILES_HEADER) + sum(estimate_tokens(f) for f in files)
    # The floor holds for a short prompt and for a reduced one (a pasted document).
    notes = _note_lines(paths, analysis, terms, budget, short, reduced=query != prompt)
    blocks = []
    if notes:
        blocks.append(HEADER + "\n".join(notes))
    if files:
        blocks.append(FILES_HEADER + "\n".join(files))
    return "\n\n".join(blocks) or None


def _note_lines(
    paths: VaultPaths,
    analysis: QueryAnalysis,
    terms: set[str],
    budget: int,
    short: bool,
    *,
    reduced: bool,
) -> list[str]:
    """The recall lines of the notes that clear the bar, best first, within ``budget``
    tokens; none below the relevance floor for a ``short`` prompt
    (:func:`prompt_words`), nor for a ``reduced`` one whose words not written as code
    are below it too (:data:`LONG_PROMPT_TERMS`, :func:`_prose_relevant`).
    The lines show no stale flag and no why-line, so neither is asked for (no note
    read, no git but for the notes shown; no query word mapped back)."""
    from rubi.app.pagetext import note_body
    from rubi.app.searching import search
    from rubi.core.safeio import MAX_NOTE_BYTES, UnsafeFileError, allowed_root, read_text
    from rubi.core.tokens import estimate_tokens
    from rubi.search.snippet import best_snippet

    result = search(
        paths,
        analysis.text,
        scope="notes",
        top_k=CANDIDATES,
        refresh=False,
        personal=False,
        analysis=analysis,
        stale=False,
        why=False,  # the lines show no why-line
        needs="relevant" if short else "",  # below the floor, nothing is shown
    )
    if not result.relevant and (short or (reduced and not _prose_relevant(paths, analysis))):
        return []  # below the relevance floor: the vault has nothing on this prompt
    needed = needed_terms(len(terms))
    allowed, _ = allowed_root(paths.root, paths.project_root)
    lines: list[str] = []
    for hit in result.hits:
        if hit.id == "map" or hit.id.startswith(SKIPPED_FOLDERS):
            continue
        if hit.status in SKIPPED_STATUSES:
            continue
        if len(terms.intersection(hit.matched)) < needed:
            continue
        try:
            text = read_text(allowed, paths.root / hit.path, limit=MAX_NOTE_BYTES)
        except (OSError, UnsafeFileError):
            continue  # gone, or refused (a symlink out of the project, a FIFO): never shown
        body = note_body(text)
        if "%%" in body or "<!--" in body:  # the body as a reader sees it: no comment shown
            from rubi.markdown.comments import shown_body

            body = shown_body(body)
        snippet = best_snippet(body, terms, chars=SNIPPET_CHARS)
        line = f"- [{hit.type}] {hit.title} (id {hit.id}): {snippet}"
        cost = estimate_tokens(line)
        if cost > budget:
            break
        lines.append(line)
        budget -= cost
        if len(lines) >= MAX_NOTES:
            break
    return lines


def _prose_relevant(paths: VaultPaths, analysis: QueryAnalysis) -> bool:
    """Whether the words of a reduced prompt's query that are not written as code
    (:func:`rubi.search.longquery.is_identifier`) clear the relevance floor in the
    notes: a pasted traceback's frames are about code, the sentence around them about
    the note ("the login token expires at midnight and then this happens: ...")."""
    from rubi.app.searching import search
    from rubi.search.longquery import is_identifier, written_words

    words = [w for w in written_words(analysis.text) if not is_identifier(w)]
    if len(words) < MIN_MATCHED_TERMS:
        return False
    result = search(
        paths,
        " ".join(words),
        scope="notes",
        top_k=1,
        refresh=False,
        personal=False,
        stale=False,
        why=False,
        needs="relevant",
    )
    return result.relevant


def _file_lines(
    paths: VaultPaths, prompt: str, analysis: QueryAnalysis, terms: set[str], short: bool
) -> list[str]:
    """The recall lines of the code files that clear the bar (at most
    :data:`MAX_FILES`, best first): ``- path#Lstart-end (symbol)``; none when the
    prompt is ``short`` (:func:`prompt_words`) and does not name code of this project
    (no word written as an identifier, or none the name list matched), nor when it is
    long and writes no identifier of this project's code
    (:func:`rubi.app.searching.code_names` of the whole ``prompt``)."""
    from rubi.app.searching import code_names, search
    from rubi.search.longquery import is_identifier, written_words

    query = analysis.text
    if short and not any(is_identifier(w) for w in written_words(query)):
        return []  # a short question in plain words: no evidence it is about this code
    if not short and not code_names(paths, prompt):
        return []  # a long prompt naming no code of this project: another project's issue
    result = search(
        paths,
        prompt,  # reduced as ``query`` was, and its headline searched too (rubi search's)
        scope="code",
        top_k=CANDIDATES,
        refresh=False,
        personal=False,
        analysis=analysis,
        stale=False,
        why=False,  # the lines show no why-line
        needs="named" if short else "",  # naming no code of this project, nothing is shown
    )
    if short and not result.named:
        return []  # it writes code, but no name of this project's
    needed = needed_terms(len(terms))
    lines: list[str] = []
    for hit in result.hits:
        if len(terms.intersection(hit.matched)) < needed:
            continue
        best = hit.passages[0] if hit.passages else None
        where = best.id if best is not None and best.parent == hit.id else hit.path
        symbol = f" ({best.heading})" if best is not None and best.heading else ""
        lines.append(f"- {where}{symbol}")
        if len(lines) >= MAX_FILES:
            break
    return lines

"""The SQLite file behind ``HybridMemory(path=...)``: memories that survive a kernel restart.

One table holds the memories (a sequence number, the text, the metadata as
JSON, the embedding as float32 bytes, so reopening never re-embeds, and the
links of lesson 10: which memory superseded this one, when, and which one this
one superseded); a
``meta`` table records which embedder wrote the vectors, and
``PRAGMA user_version`` the schema version. The file is opened in WAL mode
with ``synchronous=FULL``: a store is on disk before it returns, and a crash
at any moment leaves a consistent file.

Several processes may write the same file. Numbers are handed out by
``seq INTEGER PRIMARY KEY AUTOINCREMENT`` inside ``BEGIN IMMEDIATE`` (one
writer at a time, waiting up to ``BUSY_TIMEOUT_S``), so two writers never get
the same id and a deleted id is never reused. Readers learn that someone
else committed from ``PRAGMA data_version`` and fetch only newer rows; a
counter of deletes tells them when a full reload is needed instead.
``insert_unless_present`` checks for the same current text in the transaction
that inserts. Every connection sets ``secure_delete``, so a deleted row's bytes
are zeroed; ``forget`` deletes a whole chain of versions and ``fold_log`` then
truncates the write-ahead log, so a forgotten text is in no file. A transaction
that an exception cut short is rolled back, at once or at the next call.

A file this code did not write (another schema version, another embedder,
unrelated tables, not SQLite at all) is refused with ``MemoryFileError``
before a single byte of it is changed. So are a path that is not a file path,
a damaged or hand-edited file (rows numbered outside 1 … 2^62, supersede links
that dangle or form a cycle: found at open; a damaged row: at open or on any
later read), and a file or folder this process may not write: the message
says which, and what to do. A read-only file can still be searched; storing
into it fails and changes nothing. The one exception to "refused unchanged" is
a file of schema version 1 (written before memories could be superseded): once
every row has been checked it is upgraded in place, in one transaction, by
adding the three empty link columns — nothing in it is rewritten, and an older
aria_kit then refuses it with a clear message (read-only, it is read as it is).
A change that another process made first (a supersede of what it just deleted
or superseded) is ``ChangedByAnotherProcess``, not damage. This module knows nothing about BM25
or ranking; ``hybrid_memory.py`` rebuilds those from the rows.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from aria_kit.memory_rules import SEQ_LIMIT, chain_problem, make_memory_id

SCHEMA_VERSION = 2
FORMAT = "aria_kit memory"
BUSY_TIMEOUT_S = 30.0

_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # seq n is the memory mem_000n; AUTOINCREMENT never hands out a number twice, even after deletes.
    "CREATE TABLE memories (seq INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT NOT NULL,"
    " metadata TEXT NOT NULL, embedding BLOB NOT NULL,"
    " superseded_by INTEGER, superseded_at TEXT, supersedes INTEGER)",
)
# Version 1 -> 2 only adds the links of lesson 10, empty: every version-1 memory is current.
_MIGRATE_FROM_V1 = (
    "ALTER TABLE memories ADD COLUMN superseded_by INTEGER",
    "ALTER TABLE memories ADD COLUMN superseded_at TEXT",
    "ALTER TABLE memories ADD COLUMN supersedes INTEGER",
    "INSERT INTO meta VALUES ('supersedes', '0')",
)
_COLUMNS = "seq, text, metadata, embedding, superseded_by, superseded_at, supersedes"


class MemoryFileError(ValueError):
    """The file cannot be used as this memory's store; the message says why and what to do."""


class ChangedByAnotherProcess(ValueError):
    """Another process changed this memory first (a lost race, not damage): search again and retry."""


class WouldRevive(ValueError):
    """Deleting this memory alone would make an older version of its fact current again: forget it instead."""


class ForgetIncomplete(RuntimeError):
    """A forget was committed, but an open read elsewhere kept old pages in the write-ahead log."""


def revival_refusal(memory_id: str, older: str) -> WouldRevive:
    """The refusal every backend gives for deleting the current version of a fact that has history."""
    return WouldRevive(f"{memory_id} is the current version of a fact that has older versions (it superseded "
                       f"{older}); deleting it alone would make {older} current again, so nothing was deleted. To "
                       f"remove the fact with its whole history, forget it: memory.forget({memory_id!r}), or "
                       f"/forget {memory_id} in the terminal chat (make chat), or the chat widget's Forget… box. To correct "
                       "it, supersede it with the new value.")


@dataclass(frozen=True)
class StoredMemory:
    """One row as read back from the file."""

    seq: int
    text: str
    metadata: dict[str, Any]
    vector: np.ndarray
    superseded_by: int | None = None
    superseded_at: str | None = None
    supersedes: int | None = None


class MemoryFile:
    """An open memory file for one embedder (``embedder_name``, ``dim``-wide vectors)."""

    def __init__(self, path: str | Path, embedder_name: str, dim: int) -> None:
        self.path = _checked_path(path)
        self.embedder_name = embedder_name
        self.dim = dim
        try:
            if self.path.exists():
                # Look before touching: even switching to WAL mode would rewrite a foreign file's header.
                with closing(_connect(self.path.resolve().as_uri() + "?mode=ro", uri=True)) as probe:
                    probe.execute("BEGIN")  # one snapshot for every read: another process may be creating it now
                    self._refuse_if_unusable(probe)
            self._conn = _connect(str(self.path))
            _use_wal(self._conn)
            self._conn.execute("PRAGMA synchronous=FULL")
        except sqlite3.Error as exc:
            if _problem(exc) == "busy":  # not a folder problem: someone else has the file right now
                raise _unusable(self.path, exc) from exc
            raise MemoryFileError(f"cannot open memory file {self.path}: {exc}. "
                                  "Check that its folder exists and is writable.") from exc
        self._data_version: int | None = None
        self._columns = _COLUMNS  # a version-1 file this process may not upgrade is read with empty links
        try:
            with self._transaction("IMMEDIATE"):  # two processes creating the same new file: one wins
                state = self._refuse_if_unusable(self._conn)
                if state == "empty":
                    for statement in _SCHEMA:
                        self._conn.execute(statement)
                    meta = {"format": FORMAT, "embedder": embedder_name, "dim": str(dim), "deletes": "0",
                            "supersedes": "0"}
                    self._conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
                    self._conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                elif state == "version 1":
                    self._upgrade_from_v1()
        except BaseException:
            self._conn.close()
            raise

    def _upgrade_from_v1(self) -> None:
        """Add the link columns (inside the open transaction), or, if this process may not write, read as is."""
        try:
            for statement in _MIGRATE_FROM_V1:
                self._conn.execute(statement)
            self._conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.Error as exc:
            if _problem(exc) != "access":
                raise
            self._columns = _COLUMNS.split(", superseded_by")[0] + ", NULL, NULL, NULL"

    def _refuse_if_unusable(self, conn: sqlite3.Connection) -> str:
        """Return "empty", "ours" or "version 1" (ours, to upgrade); raise ``MemoryFileError`` for anything else."""
        where = self.path
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            meta = dict(conn.execute("SELECT key, value FROM meta")) if "meta" in tables else {}
        except sqlite3.DatabaseError as exc:
            if _problem(exc) != "damaged":  # a permission problem is not a foreign file
                raise _unusable(where, exc) from exc
            raise MemoryFileError(f"{where} is not an Aria Kit memory file, or is damaged ({exc}). It was left "
                                  "untouched; pass a path to a new file, or to a memory file HybridMemory wrote."
                                  ) from exc
        if version == 0 and not tables:
            return "empty"
        if meta.get("format") != FORMAT:
            listed = ", ".join(sorted(tables)) or "none"
            raise MemoryFileError(f"{where} is an SQLite database but not an Aria Kit memory file "
                                  f"(its tables: {listed}). It was left untouched; pass a path to a new file.")
        if version not in (1, SCHEMA_VERSION):
            raise MemoryFileError(f"{where} is a memory file of schema version {version}, but this aria_kit "
                                  f"reads version {SCHEMA_VERSION}. It was left untouched; open it with the "
                                  "aria_kit version that wrote it, or pass a path to a new file.")
        if meta.get("embedder") != self.embedder_name or meta.get("dim") != str(self.dim):
            raise MemoryFileError(f"{where} holds vectors from the embedder {meta.get('embedder')!r} "
                                  f"({meta.get('dim')}-d), but this memory uses {self.embedder_name!r} "
                                  f"({self.dim}-d), and vectors from different embedders cannot be compared. "
                                  "Open it with the embedder that wrote it, or pass a path to a new file.")
        self._refuse_bad_rows(conn, version)
        return "ours" if version == SCHEMA_VERSION else "version 1"

    def _refuse_bad_rows(self, conn: sqlite3.Connection, version: int) -> None:
        """Refuse rows no version of this code writes: a version-1 file wholly (before it is upgraded), a
        version-2 file's numbers and links (its rows' contents are checked as they are read)."""
        try:
            if version == 1:
                rows = {}
                for values in conn.execute("SELECT seq, text, metadata, embedding FROM memories"):
                    self._row(*values)
                    rows[values[0]] = (None, None)
            else:
                rows = {seq: (by, of) for seq, by, of in conn.execute(
                    "SELECT seq, superseded_by, supersedes FROM memories")}
            handed_out = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'memories'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise _unusable(self.path, exc) from exc
        problem = chain_problem(rows)
        if problem is None and handed_out is not None and not 0 <= handed_out[0] <= SEQ_LIMIT:
            problem = f"the last memory number handed out is {handed_out[0]}, beyond {SEQ_LIMIT:,}"
        if problem is not None:
            raise MemoryFileError(f"{self.path}: {problem}; the file was edited by hand or is damaged. It was left "
                                  "untouched. Restore a backup, or pass a path to a new file.")

    @contextmanager
    def _transaction(self, kind: str = "DEFERRED") -> Iterator[None]:
        # isolation_level=None hands transactions to us; IMMEDIATE takes the write lock up front,
        # so a writer never has to upgrade a read lock (which can fail instead of waiting).
        try:
            if self._conn.in_transaction:  # left open by a call that an exception cut between BEGIN and its end
                self._conn.execute("ROLLBACK")
            self._conn.execute(f"BEGIN {kind}")
            try:
                yield
                self._conn.execute("COMMIT")
            finally:  # whatever stopped us (an error, a timeout, Ctrl-C): nothing half-written stays open
                if self._conn.in_transaction:  # SQLite rolls back by itself after some errors (e.g. a full disk)
                    self._conn.execute("ROLLBACK")
        except (MemoryFileError, ChangedByAnotherProcess, WouldRevive):  # said already: not damage
            raise
        except (sqlite3.DatabaseError, ValueError, TypeError, OverflowError) as exc:  # rolled back: nothing changed
            raise _unusable(self.path, exc) from exc

    def _refuse_if_not_upgraded(self) -> None:
        # A version-1 file read as it is (this process may not write it): any change is refused as for a
        # read-only file, before a statement about links it lacks could be mistaken for damage.
        if self._columns != _COLUMNS:
            raise _unusable(self.path, sqlite3.OperationalError("attempt to write a readonly database"))

    def changed(self) -> bool:
        """Whether another connection committed since the last ``read_changes`` (always true before the first)."""
        return self._conn.execute("PRAGMA data_version").fetchone()[0] != self._data_version

    def insert(self, items: Sequence[tuple[str, dict[str, Any], np.ndarray]]) -> list[int]:
        """Append ``(text, metadata, vector)`` rows in one committed transaction; return their seqs."""
        self._refuse_if_not_upgraded()
        with self._transaction("IMMEDIATE"):
            return [
                self._conn.execute(
                    "INSERT INTO memories (text, metadata, embedding) VALUES (?, ?, ?)",
                    (text, json.dumps(metadata, ensure_ascii=False), np.asarray(vector, dtype="<f4").tobytes()),
                ).lastrowid
                for text, metadata, vector in items
            ]

    def insert_unless_present(self, item: tuple[str, dict[str, Any], np.ndarray],
                              copy: tuple[int, int | None, int | None]) -> tuple[int, bool]:
        """Insert ``(text, metadata, vector)`` unless a current memory has exactly this text; return its seq and
        whether it is new. The look and the insert share one write transaction, so two processes storing the
        same text at once store it once.

        ``copy`` is what the caller's copy of the file says: ``(last seq, change counter, seq of a current
        memory with this text or None)``. While the counter still matches, only the rows after that seq are
        looked at (a range of the primary key); otherwise every text is (a scan: ~20 ms per 10,000 memories).
        """
        self._refuse_if_not_upgraded()
        text, metadata, vector = item
        last_seen, changes_seen, found_in_copy = copy
        with self._transaction("IMMEDIATE"):
            trusted = self._deletes() == changes_seen
            if trusted and found_in_copy is not None:
                return found_in_copy, False
            found = self._conn.execute("SELECT seq FROM memories WHERE seq > ? AND text = ? AND superseded_by IS "
                                       "NULL ORDER BY seq LIMIT 1", (last_seen if trusted else 0, text)).fetchone()
            if found is not None:
                return found[0], False
            return self._conn.execute(
                "INSERT INTO memories (text, metadata, embedding) VALUES (?, ?, ?)",
                (text, json.dumps(metadata, ensure_ascii=False), np.asarray(vector, dtype="<f4").tobytes()),
            ).lastrowid, True

    def delete(self, seq: int) -> tuple[bool, int]:
        """Delete row ``seq``; return whether it existed and the delete counter *before* this delete.

        A deleted older version of a fact is cut out of its chain: its predecessor now points to its successor.
        The current version of a fact with history is refused (``WouldRevive``, nothing changed): deleting it
        would make its predecessor current again; ``forget`` removes the whole chain.
        """
        self._refuse_if_not_upgraded()
        with self._transaction("IMMEDIATE"):
            before = self._deletes()
            links = self._conn.execute("SELECT superseded_by, supersedes FROM memories WHERE seq = ?", (seq,)).fetchone()
            if links is not None and links[0] is None and links[1] is not None:
                raise revival_refusal(make_memory_id(seq), make_memory_id(links[1]))
            existed = self._conn.execute("DELETE FROM memories WHERE seq = ?", (seq,)).rowcount == 1
            if existed:
                successor, predecessor = links
                self._conn.execute("UPDATE memories SET superseded_by = ? WHERE seq = ?", (successor, predecessor))
                self._conn.execute("UPDATE memories SET supersedes = ? WHERE seq = ?", (predecessor, successor))
                self._conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'deletes'")
        return existed, before

    def forget(self, seq: int) -> tuple[list[int], int]:
        """Delete row ``seq`` with every version of its fact, in one transaction; return the seqs deleted
        (ascending) and the delete counter *before* (as ``delete`` does). Then call ``fold_log``.

        The chain is read inside the transaction, so versions another process added are forgotten too.
        ``secure_delete`` overwrites the rows' bytes with zeros; ``fold_log`` then empties the write-ahead log.
        """
        self._refuse_if_not_upgraded()
        with self._transaction("IMMEDIATE"):
            before = self._deletes()
            chain = self._chain_of(seq)
            self._conn.executemany("DELETE FROM memories WHERE seq = ?", [(s,) for s in chain])
            if chain:
                self._conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'deletes'")
        return chain, before

    def _chain_of(self, seq: int) -> list[int]:
        """Every seq of ``seq``'s chain of versions (ascending; [] if ``seq`` is not stored)."""
        chain, pending = set(), [seq]
        while pending:
            at = pending.pop()
            found = self._conn.execute("SELECT superseded_by, supersedes FROM memories WHERE seq = ?", (at,)).fetchone()
            if found is not None and at not in chain:  # `not in`: a hand-made cycle must not loop (open refuses it)
                chain.add(at)
                pending += [link for link in found if link is not None]
        return sorted(chain)

    def fold_log(self) -> None:
        """Copy the write-ahead log into the file and truncate it to 0 bytes (``ForgetIncomplete`` if it could not)."""
        busy, _, _ = self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if busy:
            raise ForgetIncomplete(f"the memory is forgotten, but another connection to {self.path} was reading, "
                                   f"so older copies of its pages may remain in {self.path.name}-wal until the "
                                   "last connection closes. Close the other copies (other kernels, terminals) and "
                                   "forget again, or close this memory: the last close folds the log in.")

    def supersede(self, old_seq: int, item: tuple[str, dict[str, Any], np.ndarray], at: str) -> tuple[int, int]:
        """Insert ``item`` as the successor of row ``old_seq``, in one transaction (lesson 10).

        Returns the new seq and the change counter *before* this change. Raises
        ``ChangedByAnotherProcess`` (and writes nothing) if ``old_seq`` is gone or already superseded.
        """
        self._refuse_if_not_upgraded()
        with self._transaction("IMMEDIATE"):
            before = self._deletes()
            found = self._conn.execute("SELECT superseded_by FROM memories WHERE seq = ?", (old_seq,)).fetchone()
            # The caller found old_seq current a moment ago, so another process got here first.
            if found is None or found[0] is not None:
                what = "deleted it" if found is None else f"superseded it by mem_{found[0]:04d} (already superseded)"
                raise ChangedByAnotherProcess(f"another process changed memory mem_{old_seq:04d} first (it "
                                              f"{what}); search memory again for the current version and retry")
            text, metadata, vector = item
            new_seq = self._conn.execute(
                "INSERT INTO memories (text, metadata, embedding, supersedes) VALUES (?, ?, ?, ?)",
                (text, json.dumps(metadata, ensure_ascii=False), np.asarray(vector, dtype="<f4").tobytes(), old_seq),
            ).lastrowid
            self._conn.execute("UPDATE memories SET superseded_by = ?, superseded_at = ? WHERE seq = ?",
                               (new_seq, at, old_seq))
            # Rewriting an old row, like deleting one, is what tells other readers to reload.
            self._conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'supersedes'")
        return new_seq, before

    def read_changes(self, after_seq: int, deletes_seen: int | None) -> tuple[bool, list[StoredMemory], int]:
        """Rows newer than ``after_seq``, or all rows if anything was deleted since ``deletes_seen``.

        Returns ``(reload, rows, deletes)``: ``reload`` says the rows are the whole
        memory rather than an addition to it. Both reads share one snapshot.
        """
        version = self._conn.execute("PRAGMA data_version").fetchone()[0]  # before the read: later commits show
        with self._transaction("DEFERRED"):
            deletes = self._deletes()
            reload = deletes != deletes_seen
            # closing(): a read cut short must not leave its statement open (it would block the next checkpoint)
            with closing(self._conn.execute(f"SELECT {self._columns} FROM memories WHERE seq > ? ORDER BY seq",
                                            (0 if reload else after_seq,))) as cursor:
                rows = [self._row(*values) for values in cursor]
        self._data_version = version
        return reload, rows, deletes

    def _deletes(self) -> int:
        # Changes to rows already stored (deletes and supersedes): what makes a reader reload everything.
        # Each counter is read as written (a digit string): SQL's CAST would turn a damaged 'many' into 0.
        counters = dict(self._conn.execute("SELECT key, value FROM meta WHERE key IN ('deletes', 'supersedes')"))
        if self._columns != _COLUMNS:  # a version-1 file, not upgraded: it has no supersedes counter
            counters.setdefault("supersedes", "0")
        return int(counters.get("deletes")) + int(counters.get("supersedes"))  # a missing one: TypeError, refused

    def _row(self, seq: int, text: Any, metadata: Any, blob: Any, superseded_by: int | None = None,
             superseded_at: str | None = None, supersedes: int | None = None) -> StoredMemory:
        if not isinstance(blob, bytes) or len(blob) != 4 * self.dim:
            found = f"{len(blob)} bytes" if isinstance(blob, bytes) else f"a value of type {type(blob).__name__}"
            raise MemoryFileError(f"{self.path}: memory {seq} has {found} as its embedding where "
                                  f"{4 * self.dim} bytes were expected; the file is damaged. Restore a backup.")
        try:
            decoded = json.loads(metadata) if isinstance(metadata, str) else None
        except ValueError:  # JSONDecodeError, and numbers too long to convert
            decoded = None
        if not isinstance(text, str) or not isinstance(decoded, dict):
            what = "text" if not isinstance(text, str) else "metadata"
            raise MemoryFileError(f"{self.path}: the {what} of memory {seq} is not what HybridMemory writes; the file "
                                  "is damaged. It was left untouched. Restore a backup, or pass a path to a new file.")
        links_ok = (all(v is None or (isinstance(v, int) and v > 0) for v in (superseded_by, supersedes))
                    and (superseded_at is None or isinstance(superseded_at, str)))
        if not links_ok:
            raise MemoryFileError(f"{self.path}: the supersede links of memory {seq} are not what HybridMemory "
                                  "writes; the file is damaged. It was left untouched. Restore a backup.")
        return StoredMemory(seq, text, decoded, np.frombuffer(blob, dtype="<f4"), superseded_by, superseded_at, supersedes)

    def close(self) -> None:
        """Close the connection (the last one to close also folds the WAL back into the file)."""
        self._conn.close()


def _checked_path(path: Any) -> Path:
    """``path`` as a ``Path`` to a file, or ``MemoryFileError`` saying what kind of path is needed."""
    if not isinstance(path, (str, os.PathLike)) or "\0" in str(path):
        shown = "a path with a NUL character" if isinstance(path, (str, os.PathLike)) else f"type {type(path).__name__}"
        raise MemoryFileError(f"the memory file path must be a file name such as 'memory.sqlite3' (a str or "
                              f"pathlib.Path), got {shown}")
    checked = Path(path)
    if checked.is_dir():
        raise MemoryFileError(f"{checked} is a folder; pass the path of a file inside it, such as "
                              f"{checked / 'memory.sqlite3'}")
    return checked


def _problem(exc: Exception) -> str:
    """What an SQLite error means for the user: "access", "full", "busy" or "damaged"."""
    name = getattr(exc, "sqlite_errorname", "") or ""  # Python 3.11+; the message is the fallback
    text = str(exc).lower()
    if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")) or any(
            cue in text for cue in ("readonly", "unable to open", "permission")):
        return "access"
    if name.startswith("SQLITE_FULL") or "disk is full" in text:
        return "full"
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
        return "busy"
    return "damaged"


def _unusable(path: Path, exc: Exception) -> MemoryFileError:
    """The ``MemoryFileError`` for an error met while reading or writing ``path``."""
    problem = _problem(exc) if isinstance(exc, sqlite3.Error) else "damaged"
    advice = {
        "access": f"this process may not write it. SQLite needs write access to the file and to its folder "
                  f"{path.parent} (it keeps {path.name}-wal and {path.name}-shm next to it): fix the permissions, "
                  "or copy the file to a writable folder",
        "full": "the disk is full. Free some space and try again",
        "busy": f"another process held it for more than {BUSY_TIMEOUT_S:g} s. Try again",
        "damaged": "the file is damaged or was edited by hand. Restore a backup, or pass a path to a new file",
    }[problem]
    return MemoryFileError(f"cannot use memory file {path} ({type(exc).__name__}: {exc}); nothing in it was "
                           f"changed: {advice}.")


def _use_wal(connection: sqlite3.Connection) -> None:
    """Put the file in WAL mode, waiting (up to ``BUSY_TIMEOUT_S``) while another process has it.

    Switching to WAL needs the file to itself, and SQLite answers "database is locked" at once instead of
    calling its busy handler, so two processes opening one new file together could fail here (seen in ~1 of
    7 opens with three at once). Once one has switched, the mode is in the file and the others' switch is free.
    """
    deadline, pause = time.monotonic() + BUSY_TIMEOUT_S, 0.001
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if _problem(exc) != "busy" or time.monotonic() > deadline:
                raise
            time.sleep(pause)
            pause = min(2 * pause, 0.05)


def _connect(database: str, uri: bool = False) -> sqlite3.Connection:
    connection = sqlite3.connect(database, timeout=BUSY_TIMEOUT_S, isolation_level=None, uri=uri)
    connection.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    # Deleted rows' bytes are overwritten with zeros, not left in free pages: many SQLite builds default to off.
    connection.execute("PRAGMA secure_delete = ON")
    return connection

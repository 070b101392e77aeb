"""What an audit reads: files, directories, zip and tar archives and JSON Lines files, walked
into ``Item``s with stable names, lazily and in a fixed order.

Names say where a game came from: ``games/a.json``, ``corpus.zip!inner/b.json`` (an archive
entry), ``logs.jsonl#12`` (line 12), ``corpus.tar.gz!part.jsonl#3``. Nothing is ever extracted
to disk: an entry's name is only a name (``a.zip!../../etc/passwd.json`` is read from the
archive like any other entry).

Reading is bounded (``Limits``): an entry is read up to ``max_bytes`` (the verifier's 5 MB),
refused when its declared size is above that or its actual decompressed size exceeds it; an
archive may hold at most ``max_entries`` entries and ``max_total`` decompressed bytes; an
entry compressed more than ``max_ratio`` times is a bomb; an archive inside an archive
(deeper than ``max_depth``) is not opened. Each refusal is an unreadable ``Item`` with its
reason, so the audit reports it and goes on.

A plain file on disk is an ``Item`` with a ``path`` (read where it is verified: workers share
the file system); an archive entry or a JSON Lines line carries its ``data``.
"""

from __future__ import annotations

import bz2
import errno
import gzip
import io
import lzma
import os
import stat
import struct
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import IO, Self, cast

from ..core.json_input import MAX_BYTES
from ..core.printable import printable

LOG_SUFFIXES = (".json", ".jcz")
LINES_SUFFIXES = (".jsonl", ".ndjson")
ZIP_SUFFIXES = (".zip",)
TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")


@dataclass(frozen=True, slots=True)
class Limits:
    """How much of an input is read before it is refused."""

    max_bytes: int = MAX_BYTES  # one log (an entry, a line, a file)
    max_entries: int = 1_000_000  # entries of one archive
    max_total: int = 64 * 1024**3  # decompressed bytes of one archive
    max_ratio: int = 200  # decompressed / compressed size of one zip entry
    max_depth: int = 1  # archives opened inside one another (1: no archive in an archive)


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True, slots=True)
class Item:
    """One game to verify: its stable name, and a path to read or the bytes read already; or
    why it could not be read (``error``)."""

    name: str
    path: str | None = None
    data: bytes | None = None
    error: str | None = None


def kind(name: str) -> str | None:
    """``log``, ``lines``, ``zip`` or ``tar`` by a name's ending; None for other files."""
    low = name.lower()
    if low.endswith(TAR_SUFFIXES):
        return "tar"
    if low.endswith(ZIP_SUFFIXES):
        return "zip"
    if low.endswith(LINES_SUFFIXES):
        return "lines"
    if low.endswith(LOG_SUFFIXES):
        return "log"
    return None


def walk(sources: Iterable[str], limits: Limits = DEFAULT_LIMITS) -> Iterator[Item]:
    """Every game of ``sources`` in order: a named file whatever its ending, a directory's
    log files, archives and JSON Lines files (recursively, sorted by name). Only regular
    files are opened: a FIFO, a socket, a device or a link in a loop is an unreadable item
    (``not_regular``), and links to directories are not followed."""
    for path, what, error in files(sources):
        if error is not None:
            yield Item(printable(path), error=error)
        else:
            yield from _file(path, what, limits)


def files(sources: Iterable[str]) -> Iterator[tuple[str, str, str | None]]:
    """The files ``walk`` reads, in its order: (path, kind, why it is not read or None)."""
    for src in sources:
        if os.path.isdir(src):
            errors: list[OSError] = []
            for root, dirs, names in os.walk(src, onerror=errors.append):
                dirs.sort()
                while errors:
                    exc = errors.pop(0)
                    yield (exc.filename or root, "log",
                           f"cannot read the directory: {exc.strerror or exc}")
                for f in sorted(names):
                    what = kind(f)
                    if what is not None:
                        full = os.path.join(root, f)
                        yield (full, what, not_regular(full))
            for exc in errors:
                yield (exc.filename or src, "log",
                       f"cannot read the directory: {exc.strerror or exc}")
        elif os.path.lexists(src):
            yield (src, kind(src) or "log", not_regular(src))
        else:
            yield (src, "log", "no such file or directory")


_TYPES = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISDIR, "a directory"))


def not_regular(path: str) -> str | None:
    """Why ``path`` is not opened (None: a regular file, or a link to one): a FIFO, a socket
    or a device would block or never end, a link in a loop leads nowhere."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "link loop (symbolic links that lead back to one another); not read"
        if os.path.islink(path) and exc.errno == errno.ENOENT:
            return "a symbolic link to nothing (no such file); not read"
        return f"cannot read: {exc.strerror or exc}"
    if stat.S_ISREG(mode):
        return None
    what = next((name for test, name in _TYPES if test(mode)), "a special file")
    return f"not a regular file ({what}); not read"


def _file(path: str, what: str, limits: Limits) -> Iterator[Item]:
    name = printable(path)
    if what == "log":
        yield Item(name, path=path)
        return
    try:
        with open(path, "rb") as fh:
            if what == "lines":
                yield from _lines(name, fh, limits)
            elif what == "zip":
                yield from _zip(name, fh, limits, 1)
            else:
                yield from _tar(name, fh, limits, 1)
    except OSError as exc:
        yield Item(name, error=f"cannot read: {exc.strerror or exc}")


def _lines(name: str, fh: IO[bytes], limits: Limits) -> Iterator[Item]:
    """One item per non-blank line, named ``name#N`` (N counts from 1)."""
    n = 0
    while True:
        line = fh.readline(limits.max_bytes + 2)
        if not line:
            return
        n += 1
        if len(line) > limits.max_bytes + 1 or (len(line) == limits.max_bytes + 1
                                                 and not line.endswith(b"\n")):
            while line and not line.endswith(b"\n"):  # skip the rest, a bounded read at a time
                line = fh.readline(limits.max_bytes)
            yield Item(f"{name}#{n}", error=f"the line is longer than {limits.max_bytes} bytes")
            continue
        if line.strip():
            yield Item(f"{name}#{n}", data=line)


def _entry(name: str, data: bytes, limits: Limits, depth: int) -> Iterator[Item]:
    """An archive entry read already: a log, a JSON Lines file or a nested archive."""
    what = kind(name)
    if what in ("zip", "tar"):
        fh = io.BytesIO(data)
        yield from (_zip(name, fh, limits, depth + 1) if what == "zip"
                    else _tar(name, fh, limits, depth + 1))
    elif what == "lines":
        yield from _lines(name, io.BytesIO(data), limits)
    else:
        yield Item(name, data=data)


# an entry of a zip archive: its name, whether it is a directory, its size, its compressed
# size, and a reader of its first N decompressed bytes (raising when it is corrupt)
_Member = tuple[str, bool, int, int, Callable[[int], bytes]]
_LOCAL = struct.Struct("<4s2xHH4xIIIHH")  # a local header: flags, method, crc, sizes, lengths
_BAD_ENTRY = (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError,
              RuntimeError, zlib.error)  # a bad CRC, an unknown method, a password, a cut


def _zip(name: str, fh: IO[bytes], limits: Limits, depth: int) -> Iterator[Item]:
    try:
        archive = zipfile.ZipFile(fh)
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        fh.seek(0)
        if fh.read(4) != b"PK\x03\x04":
            yield Item(name, error=f"not a readable zip archive: {exc}")
            return
        scan = _LocalHeaders(fh)  # cut, or its directory corrupt: read it from the start
        count = yield from _members(name, scan, limits, depth)
        if count:
            yield _broken(name, f"{scan.why} ({exc})", count)
        else:
            yield Item(name, error=f"not a readable zip archive: {exc} ({scan.why})")
        return
    yield from _members(name, ((i.filename, i.is_dir(), i.file_size, i.compress_size,
                                partial(_read_member, archive, i)) for i in infos),
                        limits, depth)


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, n: int) -> bytes:
    with archive.open(info) as member:
        return member.read(n)


def _members(name: str, members: Iterable[_Member], limits: Limits,
             depth: int) -> Generator[Item, None, int]:
    """The items of a zip archive's entries (bounded by ``limits``); how many were read."""
    total = 0
    count = 0
    for filename, is_dir, size, csize, read in members:
        what = kind(filename)
        if is_dir or what is None:
            continue
        count += 1
        entry = f"{name}!{printable(filename)}"
        if count > limits.max_entries:
            yield Item(f"{name}!", error=f"more than {limits.max_entries} entries; the rest "
                                         "is not read")
            return count - 1
        limit = _limit(limits, what)
        refused = _too_deep(what, depth, limits) or _too_big(size, csize, limit, limits)
        if refused:
            yield Item(entry, error=refused)
            continue
        try:
            data = read(limit + 1)
        except _BAD_ENTRY as exc:
            yield Item(entry, error=f"unreadable entry: {exc}")
            continue
        if len(data) > limit:
            yield Item(entry, error=f"decompresses to more than {limit} bytes")
            continue
        total += len(data)
        if total > limits.max_total:
            yield Item(f"{name}!", error=f"more than {limits.max_total} bytes decompressed; "
                                         "the rest is not read")
            return count
        yield from _entry(entry, data, limits, depth)
    return count


def _too_big(size: int, csize: int, limit: int, limits: Limits) -> str | None:
    if size > limit:
        return f"declares {size} bytes; the limit is {limit}"
    if size > 65536 and size > limits.max_ratio * max(csize, 1):
        return (f"compressed {size // max(csize, 1)} times (a bomb? at most "
                f"{limits.max_ratio} is read)")
    return None


class _LocalHeaders:
    """The entries of a zip archive whose directory at the end is cut or corrupt, read one
    after the other by their local headers as far as they go (``why`` they stop)."""

    def __init__(self, fh: IO[bytes]) -> None:
        self.fh = fh
        self.why = "it breaks off"

    def __iter__(self) -> Iterator[_Member]:
        fh = self.fh
        end = fh.seek(0, io.SEEK_END)
        at = 0
        while True:
            fh.seek(at)
            head = fh.read(_LOCAL.size)
            if len(head) < _LOCAL.size or head[:4] != b"PK\x03\x04":
                self.why = (f"its directory at byte {at} is cut or corrupt"
                            if head[:4] == b"PK\x01\x02" else f"it breaks off at byte {at}")
                return
            _, flags, method, crc, csize, size, nlen, xlen = _LOCAL.unpack(head)
            filename = fh.read(nlen).decode("utf-8" if flags & 0x800 else "cp437", "replace")
            start = at + _LOCAL.size + nlen + xlen
            if flags & 0x08 or 0xFFFFFFFF in (csize, size):
                self.why = (f"an entry of no declared size (a stream, or zip64) at byte {at}: "
                            "not read further")
                return
            if start + csize > end:
                self.why = f"it breaks off in the entry at byte {at}"
                return
            yield (filename, filename.endswith("/"), size, csize,
                   partial(_inflate, fh, start, csize, method, crc))
            at = start + csize


def _inflate(fh: IO[bytes], start: int, csize: int, method: int, crc: int, n: int) -> bytes:
    """The first ``n`` bytes of the entry whose data (stored or deflated, ``csize`` bytes) is
    at ``start`` of ``fh``, its CRC checked when it is whole; no more is read than ``n``
    bytes need, whatever the header declares."""
    fh.seek(start)
    data = fh.read(min(csize, n + n // 100 + 65536))  # deflate grows data by 0.01 % at most
    if method == zipfile.ZIP_STORED:
        out = data[:n]
    elif method == zipfile.ZIP_DEFLATED:
        inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        out = inflater.decompress(data, n)
        if len(out) < n and not inflater.eof:
            raise EOFError("the entry's compressed data breaks off")
    else:
        raise NotImplementedError(f"compression method {method}")
    if len(out) < n and zlib.crc32(out) != crc:
        raise zipfile.BadZipFile("Bad CRC-32")
    return out


def _limit(limits: Limits, what: str | None) -> int:
    """The largest entry read: a log, or a JSON Lines file / nested archive (64 logs' worth,
    within the archive's total)."""
    if what == "log":
        return limits.max_bytes
    return max(limits.max_bytes, min(limits.max_total, 64 * limits.max_bytes))


def _too_deep(what: str | None, depth: int, limits: Limits) -> str | None:
    if what in ("zip", "tar") and depth >= limits.max_depth:
        return (f"an archive inside an archive (at most {limits.max_depth} level"
                f"{'s' * (limits.max_depth != 1)} opened)")
    return None


# what a broken archive raises while it is read: a cut or corrupt tar, gzip, bzip2 or xz stream
_BROKEN = (tarfile.TarError, OSError, EOFError, ValueError, zlib.error, lzma.LZMAError)
_DRAIN = 1 << 20  # bytes read after a tar's end block to reach the end of its compression


class _Tar(tarfile.TarFile):
    """A tar archive read as a stream, knowing how it ended (``end``: None for the block of
    zeros that ends a whole archive, else why the headers stopped)."""

    end: str | None = "it ends before its end-of-archive block"


class _Header(tarfile.TarInfo):
    """A tar header that tells its archive (a ``_Tar``) how the headers ended: the
    ``tarfile`` module takes a cut or corrupt header after the first for the end."""

    @classmethod
    def fromtarfile(cls, archive: tarfile.TarFile) -> Self:  # noqa: D102
        try:
            return super().fromtarfile(archive)
        except tarfile.HeaderError as exc:  # the block of zeros of a whole archive, or a cut
            if isinstance(archive, _Tar):  # (empty or truncated) or corrupt header
                archive.end = (None if type(exc).__name__ == "EOFHeaderError"
                               else f"it breaks off at byte {archive.offset} ({exc})")
            raise


def _decompressed(fh: IO[bytes]) -> IO[bytes]:
    """``fh`` decompressed by its magic bytes (gzip, bzip2, xz): a reader that checks the end
    of the stream and its checksum, and raises when either is missing or wrong."""
    head = fh.read(6)
    fh.seek(0)
    if head.startswith(b"\x1f\x8b"):
        return cast(IO[bytes], gzip.GzipFile(fileobj=fh, mode="rb"))
    if head.startswith(b"BZh"):
        return cast(IO[bytes], bz2.BZ2File(fh))
    if head.startswith((b"\xfd7zXZ\x00", b"\x5d\x00\x00")):
        return cast(IO[bytes], lzma.LZMAFile(fh))
    return fh


def _broken(name: str, why: object, count: int) -> Item:
    """The item that says an archive breaks off: what is read before the break is reported,
    what follows is missing."""
    return Item(f"{name}!", error=f"broken archive: {why}; {count} entr"
                                  f"{'y' if count == 1 else 'ies'} read before the break")


def _tar(name: str, fh: IO[bytes], limits: Limits, depth: int) -> Iterator[Item]:
    total = 0
    count = 0
    try:
        stream = _decompressed(fh)
        archive = _Tar.open(fileobj=stream, mode="r|",  # noqa: SIM115 (closed with fh)
                            tarinfo=_Header)
    except _BROKEN as exc:
        if isinstance(exc, tarfile.TarError) and not str(exc).startswith("zlib error"):
            yield Item(name, error=f"not a readable tar archive: {exc}")
        else:  # its compression, cut or corrupt before the first header
            yield _broken(name, exc, 0)
        return
    members = iter(archive)
    while True:
        try:
            info = next(members)
        except StopIteration:
            break
        except _BROKEN as exc:
            yield _broken(name, exc, count)
            return
        archive.members.clear()  # type: ignore[attr-defined]  # a stream: keep nothing of what was read
        what = kind(info.name)
        if info.isdir() or what is None:
            continue
        count += 1
        entry = f"{name}!{printable(info.name)}"
        if count > limits.max_entries:
            yield Item(f"{name}!", error=f"more than {limits.max_entries} entries; the rest "
                                         "is not read")
            return
        limit = _limit(limits, what)
        deep = _too_deep(what, depth, limits)
        if deep:
            yield Item(entry, error=deep)
            continue
        if not info.isfile():
            yield Item(entry, error="not a regular file (a link or a device)")
            continue
        if info.size > limit:
            yield Item(entry, error=f"declares {info.size} bytes; the limit is {limit}")
            continue
        try:
            member = archive.extractfile(info)
            data = member.read(limit + 1) if member is not None else b""
        except _BROKEN as exc:
            yield Item(entry, error=f"unreadable entry: {exc}")
            yield _broken(name, exc, count - 1)
            return
        total += len(data)
        if total > limits.max_total:
            yield Item(f"{name}!", error=f"more than {limits.max_total} bytes decompressed; "
                                         "the rest is not read")
            return
        yield from _entry(entry, data, limits, depth)
    why = archive.end if stream is fh else _end_of(stream, archive.end)
    if why is not None:
        yield _broken(name, why, count)


def _end_of(stream: IO[bytes], end: str | None) -> str | None:
    """Why a compressed tar whose headers ended (``end``) is broken, or None: the rest of
    its stream read (at most ``_DRAIN`` bytes) for the decompressor to check its end."""
    if end is not None:
        return end
    budget = _DRAIN
    try:
        while budget > 0:
            got = stream.read(min(budget, 1 << 16))
            if not got:
                return None
            budget -= len(got)
    except _BROKEN as exc:
        return f"the tar is whole but its compression breaks off ({exc})"
    return None  # more after the tar's end than padding: not checked


def count(sources: Iterable[str], limits: Limits = DEFAULT_LIMITS) -> int | None:
    """About how many items ``walk`` gives (for a progress bar's ETA), reading no log: None
    when a source would take long to count (a compressed tar)."""
    n = 0
    for f, what, error in files(sources):
        try:
            if error is not None or what == "log":
                n += 1
            elif what == "lines":
                with open(f, "rb") as fh:
                    while block := fh.read(1 << 20):
                        n += block.count(b"\n")
            elif what == "zip":
                with zipfile.ZipFile(f) as z:
                    n += sum(1 for i in z.infolist() if kind(i.filename) == "log")
            elif what == "tar":
                return None
        except (OSError, zipfile.BadZipFile, ValueError):
            n += 1
    return n

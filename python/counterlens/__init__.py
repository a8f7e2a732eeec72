"""counterlens: Windows performance-counter logs read and analysed by the counterlens Rust core.

The native module (``counterlens._counterlens``, PyO3) reads logs, runs the analysis and writes files;
this module only wraps its results: an analysis as objects (``Analysis``, ``Finding``, ``Group``) and as
pandas DataFrames. Names follow the npm package's, in Python's spelling: ``openCapture`` is
``open_capture``, ``importPalThresholds`` is ``import_pal_thresholds``, ``seriesIndex`` is
``series_index``.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Iterable, Mapping, Optional, Union

from . import _counterlens as _native
from ._counterlens import (
    AnalysisError,
    Capture,
    CaptureError,
    ConvertError,
    CounterlensError,
    convert,
    open_capture,
    rule_pack,
    rule_packs,
)

__version__ = _native.version()

__all__ = [
    "Analysis",
    "AnalysisError",
    "Capture",
    "CaptureError",
    "ConvertError",
    "CounterlensError",
    "Finding",
    "Group",
    "PalImport",
    "Record",
    "analysis_report",
    "analyze",
    "build_baseline",
    "convert",
    "import_pal_thresholds",
    "open_capture",
    "rule_pack",
    "rule_packs",
]


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def _wrap(v: Any) -> Any:
    if isinstance(v, dict):
        return Record(v)
    if isinstance(v, list):
        return [_wrap(x) for x in v]
    return v


class Record:
    """One result of the core, as ``counterlens analyze --json`` writes it (``to_dict()``: its keys in
    camelCase), read in Python's spelling: ``f.series_index`` is ``f.to_dict()["seriesIndex"]``. A key
    the result leaves out (``mean`` of a finding without one) reads as None."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]):
        object.__setattr__(self, "_data", dict(data))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        data = object.__getattribute__(self, "_data")
        for key in (_camel(name), name):
            if key in data:
                return _wrap(data[key])
        return None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._data == self._data  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def keys(self) -> Iterable[str]:
        """The attributes this record has, in Python's spelling."""
        return [_snake(k) for k in self._data]

    def to_dict(self) -> dict:
        """The record as the CLI's JSON has it (camelCase keys)."""
        return self._data

    def __repr__(self) -> str:
        shown = ", ".join(f"{_snake(k)}={v!r}" for k, v in list(self._data.items())[:6])
        more = ", ..." if len(self._data) > 6 else ""
        return f"{type(self).__name__}({shown}{more})"


class Finding(Record):
    """A rule broken over a stretch of one series: pack, rule, title, category, severity ('warning' or
    'critical'), series_index, path, start and end (ms since the epoch, UTC), broke, worst, threshold,
    operator, message, and where they apply mean, share, variables, derived, scope."""


class Group(Record):
    """A card: one concern over one stretch (pack, rule, severity, start, end, findings (indices into
    ``Analysis.findings``), worst, series, group, category, machine, scope, lead, duration_ms, mean,
    share, summary, contributors), ranked by what matters."""


class PalImport(Record):
    """PAL threshold XML translated into a pack: ``pack`` (a dict, to give ``analyze(packs=[...])``),
    translated, total, untranslated, variables, missing_files, notes."""

    @property
    def pack(self) -> dict:  # type: ignore[override]
        return self._data["pack"]


_TIME_COLUMNS = ("start", "end")


def _frame(records: list, columns: list) -> Any:
    import pandas as pd

    rows = [{c: r.to_dict().get(_camel(c)) for c in columns} for r in records]
    df = pd.DataFrame(rows, columns=columns)
    for c in _TIME_COLUMNS:
        if c in df:
            df[c] = pd.to_datetime(df[c].astype("float64"), unit="ms", utc=True)
    return df


FINDING_COLUMNS = [
    "pack", "rule", "title", "category", "severity", "series_index", "path", "start", "end",
    "worst", "threshold", "operator", "mean", "share", "message",
]
GROUP_COLUMNS = [
    "pack", "rule", "severity", "start", "end", "duration_ms", "machine", "group", "category",
    "series", "worst", "lead", "mean", "share", "summary",
]


class Analysis:
    """An analysis of one capture: what ``counterlens analyze --json`` writes (``to_dict()``, without
    its ``inputs``), its findings and cards as objects and as DataFrames."""

    def __init__(self, data: Mapping[str, Any]):
        self._data = dict(data)
        self.findings = [Finding(f) for f in self._data.get("findings", [])]
        self.groups = [Group(g) for g in self._data.get("groups", [])]
        self.rules = [Record(r) for r in self._data.get("rules", [])]
        self.slices = [Record(s) for s in self._data.get("slices", [])]
        self.packs = [Record(p) for p in self._data.get("packs", [])]
        self.variables = dict(self._data.get("variables", {}))
        self.variable_sources = dict(self._data.get("variableSources", {}))
        self.log = Record(self._data.get("log", {}))
        # The verdict in words: headline, lines (text, next, severity, group), more, ran.
        self.story = Record(self._data.get("story", {}))

    def to_dict(self) -> dict:
        return self._data

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self._data, **kwargs)

    def findings_frame(self) -> Any:
        """The findings as a pandas DataFrame, one row each (``FINDING_COLUMNS``; start and end as UTC
        timestamps)."""
        return _frame(self.findings, FINDING_COLUMNS)

    def groups_frame(self) -> Any:
        """The cards as a pandas DataFrame, one row each, in rank order (``GROUP_COLUMNS``)."""
        return _frame(self.groups, GROUP_COLUMNS)

    def counts(self) -> dict:
        """Findings by severity: ``{"critical": n, "warning": n}``."""
        out = {"critical": 0, "warning": 0}
        for f in self.findings:
            out[f.severity] = out.get(f.severity, 0) + 1
        return out

    def __repr__(self) -> str:
        c = self.counts()
        return (
            f"<counterlens.Analysis: {len(self.findings)} findings ({c['critical']} critical, "
            f"{c['warning']} warning), {len(self.groups)} cards, {len(self.rules)} rules>"
        )


PackArg = Union[str, Mapping[str, Any], PalImport]


def _pack(p: Any) -> Any:
    if isinstance(p, PalImport):
        return p.pack
    if isinstance(p, Record):
        return p.to_dict()
    return p


def analyze(
    capture: Union[Capture, bytes, str, "os.PathLike[str]"],
    packs: Optional[Iterable[PackArg]] = None,
    variables: Optional[Mapping[str, Union[float, str]]] = None,
    slice: Union[str, float, None] = None,
    from_ms: Optional[float] = None,
    to_ms: Optional[float] = None,
    overlap: Optional[str] = None,
    baseline: Union[Mapping[str, Any], str, "os.PathLike[str]", None] = None,
) -> Analysis:
    """Analyses a capture (or a log's bytes or path) with rule packs: built-in ids, pack dicts or JSON
    texts, or ``import_pal_thresholds(...)``'s result; None for every built-in pack whose counters the
    log has. ``variables`` answers the packs' questions (``{"totalMemoryMB": 16384}``); ``slice`` is
    "auto" (the duration / 30, as PAL), a duration ("5m") or ms; ``overlap`` is "imported", "builtin"
    or "both"; ``baseline`` is the machine's normal (``build_baseline``'s dict, a ``.baseline.json``
    file's path, or its JSON text), which adds the cards "worse than its normal" (pack "baseline").
    The options are the npm package's and the CLI's."""
    plist = None if packs is None else [_pack(p) for p in packs]
    text = _native.analyze_json(
        capture,
        plist,
        None if variables is None else dict(variables),
        slice,
        from_ms,
        to_ms,
        overlap,
        _baseline_text(baseline),
    )
    return Analysis(json.loads(text))


def _baseline_text(b: Any) -> Optional[str]:
    if b is None:
        return None
    if isinstance(b, Mapping):
        return json.dumps(dict(b))
    if isinstance(b, str) and b.lstrip().startswith("{"):
        return b
    if isinstance(b, (str, os.PathLike)):
        with open(b, encoding="utf-8") as fh:
            return fh.read()
    raise TypeError("baseline must be a dict, a .baseline.json path or its JSON text")


def build_baseline(
    captures: Iterable[Union[Capture, bytes, str, "os.PathLike[str]"]],
    names: Optional[Iterable[str]] = None,
) -> dict:
    """A machine's normal from its earlier logs (captures, bytes or paths), as the dict a
    ``counterlens baseline`` file holds: per machine-level counter, quantiles by hour of day, weekdays
    and weekends apart. ``analyze(log, baseline=...)`` judges a new log of that machine against it.
    Raises AnalysisError (code "baseline") for logs of several machines or with nothing to learn."""
    items = [os.fspath(c) if isinstance(c, os.PathLike) else c for c in captures]
    return json.loads(_native.build_baseline_json(items, None if names is None else list(names)))


def analysis_report(capture: Capture, analysis: Analysis, title: Optional[str] = None) -> str:
    """One self-contained HTML document reporting ``analysis`` on ``capture`` (the CLI's --html)."""
    return _native.analysis_report(capture, analysis.to_json(), title)


def import_pal_thresholds(
    files: Union[str, bytes, "os.PathLike[str]", Mapping[str, Union[str, bytes]], Iterable["os.PathLike[str]"]],
) -> PalImport:
    """PAL threshold XML into a pack: one file's text (str) or path, a dict of file names to texts or
    bytes, or a list of paths (imported together, so ``<INHERITANCE>`` between them resolves)."""
    if isinstance(files, str) and files.lstrip("\ufeff \t\r\n").startswith("<"):
        named: dict = {"thresholds.xml": files}
    elif isinstance(files, bytes):
        named = {"thresholds.xml": files}
    elif isinstance(files, (str, os.PathLike)):
        named = {os.path.basename(os.fspath(files)): open(files, "rb").read()}
    elif isinstance(files, Mapping):
        named = dict(files)
    else:
        named = {}
        for f in files:
            with open(f, "rb") as fh:
                named[os.path.basename(os.fspath(f))] = fh.read()
    return PalImport(json.loads(_native.import_pal_json(named)))

# Type stubs of the native module (python/src/, PyO3). The package's own functions and classes
# (analyze, Analysis, Finding, ...) are typed in counterlens/__init__.py.
import os
from typing import Any, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

PathLike = Union[str, "os.PathLike[str]"]
LogData = Union[bytes, bytearray, memoryview, PathLike]

class CounterlensError(Exception):
    """Every error of counterlens: ``code`` (stable), ``message``, and the place where one applies."""

    code: str
    message: str
    line: Optional[int]
    column: Optional[int]
    offset: Optional[int]
    field: Optional[str]
    pointer: Optional[str]
    file: Optional[str]
    variable: Optional[str]

class CaptureError(CounterlensError): ...
class AnalysisError(CounterlensError): ...
class ConvertError(CounterlensError): ...

class Capture:
    @property
    def format(self) -> str: ...
    @property
    def encoding(self) -> str: ...
    @property
    def sample_count(self) -> int: ...
    @property
    def series_count(self) -> int: ...
    @property
    def source(self) -> str: ...
    @property
    def time_zone(self) -> Optional[dict[str, Any]]: ...
    def timestamps(self) -> npt.NDArray[np.float64]: ...
    def series(self) -> list[dict[str, Any]]: ...
    def values(self, index: int) -> npt.NDArray[np.float64]: ...
    def reference(self, index: int) -> Optional[npt.NDArray[np.float64]]: ...
    def english_path(self, index: int) -> Optional[str]: ...
    def stats(
        self, index: int, from_ms: Optional[float] = None, to_ms: Optional[float] = None
    ) -> Optional[dict[str, Any]]: ...
    def to_csv(self, indices: Optional[Sequence[int]] = None) -> str: ...
    def notes(self) -> list[dict[str, Any]]: ...
    def table(self) -> Any:
        """A pyarrow.Table in the long layout of the CLI's Parquet."""

def open_capture(
    data: LogData,
    *,
    encoding: Optional[str] = None,
    format: Optional[str] = None,
    keep_raw: Union[bool, Sequence[str], None] = None,
    series: Optional[Sequence[str]] = None,
    from_ms: Optional[float] = None,
    to_ms: Optional[float] = None,
    every: Optional[int] = None,
    max_column_bytes: Optional[int] = None,
) -> Capture: ...
def convert(
    capture: Union[Capture, LogData],
    output: PathLike,
    *,
    to: Optional[str] = None,
    overwrite: bool = False,
    source: Optional[str] = None,
) -> int: ...
def rule_packs() -> list[dict[str, Any]]: ...
def rule_pack(id: str) -> Optional[dict[str, Any]]: ...
def analyze_json(
    capture: Union[Capture, LogData],
    packs: Optional[Sequence[Union[str, dict[str, Any]]]] = None,
    variables: Optional[dict[str, Union[float, str]]] = None,
    slice: Union[str, float, None] = None,
    from_ms: Optional[float] = None,
    to_ms: Optional[float] = None,
    overlap: Optional[str] = None,
    baseline: Optional[str] = None,
) -> str: ...
def build_baseline_json(captures: Sequence[Union[Capture, LogData]], names: Optional[Sequence[str]] = None) -> str: ...
def analysis_report(capture: Union[Capture, LogData], analysis_json: str, title: Optional[str] = None) -> str: ...
def import_pal_json(files: dict[str, Union[str, bytes]]) -> str: ...
def version() -> str: ...

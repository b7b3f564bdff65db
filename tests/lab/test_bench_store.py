"""``pitch bench store`` runs both stores on both backends and reports each operation (kept tiny here;
its figures are printed by the command, never judged by a test)."""

from __future__ import annotations

import re

from click.testing import CliRunner

from service.cli.main import main


def test_the_store_benchmark_reports_every_operation_and_a_ratio_per_backend() -> None:
    result = CliRunner().invoke(main, ["bench", "store", "--rounds", "1", "--appends", "3", "--batches", "1",
                                       "--reads", "3"])
    assert result.exit_code == 0, result.output
    for backend in ("sqlite", "postgresql"):
        for operation in ("single-event appends", "40-event batches", "reads of 40 events"):
            for store in ("ours", "pyeventsourcing"):
                # Each line counts its calls: the reads' checks passed (they raise on a short read).
                assert re.search(rf"^{backend} +{operation} +{store} .*p50 .* ms  p99 .* ms  CPU .* ms a call  \(\d+ calls\)$",
                                 result.output, re.M), (backend, operation, store, result.output)
        assert re.search(rf"^ratio {backend} \d+\.\d\d$", result.output, re.M), result.output

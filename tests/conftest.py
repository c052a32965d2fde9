"""pytest collects every scenario of tests/scenarios/**/*.yaml as a test item."""

from pathlib import Path

import pytest

from regola.tools.scenarios import ScenarioError, load_file, run_scenario

SCENARIOS = Path(__file__).parent / "scenarios"


def pytest_collect_file(parent, file_path):
    # directories starting with '_' hold scenarios not yet passing (reviewed by hand)
    if file_path.suffix == ".yaml" and SCENARIOS in file_path.parents and \
            not any(part.startswith("_") for part in file_path.relative_to(SCENARIOS).parts):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self):
        try:
            scenarios = load_file(self.path)
        except ScenarioError as e:
            raise self.CollectError(str(e)) from None
        for sc in scenarios:
            yield ScenarioItem.from_parent(self, name=sc.name, scenario=sc)


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario, **kw):
        super().__init__(**kw)
        self.scenario = scenario

    def runtest(self):
        res = run_scenario(self.scenario)
        if not res.ok:
            raise ScenarioFailure(res.message)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ScenarioFailure):
            return f"{self.scenario.where}: {self.scenario.name}\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.scenario.line - 1, f"scenario: {self.name}"


class ScenarioFailure(Exception):
    pass

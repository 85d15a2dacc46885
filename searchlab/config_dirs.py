"""Where the config groups and the study presets are: the top-level ``conf/`` and
``experiments/`` of a source checkout, or their copies inside an installed wheel."""

from __future__ import annotations

from pathlib import Path


def _config_dirs() -> tuple[Path, Path]:
    """(config groups + config.yaml, study presets): the top-level ``conf/`` and
    ``experiments/`` of a source checkout (an editable install runs from it), or their copies
    inside an installed wheel (``conf/`` and ``experiments/``, mapped
    there by pyproject.toml's package-dir). One source of truth: the wheel is built from the
    top-level folders."""
    package = Path(__file__).resolve().parent  # the searchlab package
    shipped = package / "conf"
    if (shipped / "config.yaml").is_file():
        return shipped, shipped / "experiment"
    return package.parent / "conf", package.parent / "experiments"


#: The config directory (groups and config.yaml) and the presets' directory (the
#: ``experiment`` group, registered by composition.register_configs).
CONF_DIR, EXPERIMENTS_DIR = _config_dirs()

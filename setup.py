"""The wheel ships the top-level conf/ and experiments/ inside the package.

pyproject.toml cannot combine package discovery with extra mapped packages, so the package
list is made here: every ``searchlab*`` package found, plus ``searchlab.conf`` (built from
conf/: config.yaml and the groups) and ``searchlab.conf.experiment`` (built from experiments/:
the study presets). searchlab.experiment.schema finds them there in an installed wheel, and at
the top of the checkout otherwise (a source checkout or an editable install).
"""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["searchlab*"]) + ["searchlab.conf", "searchlab.conf.experiment"],
    package_dir={"searchlab.conf": "conf", "searchlab.conf.experiment": "experiments"},
)

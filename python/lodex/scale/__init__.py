"""A model of a parallel file system and network driven by lodex's real plans (docs/scale.md):
machine descriptions (:mod:`.machines`), what a particle write moves (:mod:`.traffic`), the
closed-form model (:mod:`.model`), its calibration and validation against the particle paper's
numbers (:mod:`.validation`), STAR series writes and reads against NetCDF-4-like layouts on
Jaguar (:mod:`.series`), grid writes (:mod:`.grid`) and the advisor (:mod:`.advisor`,
``lodex.planning.advise``)."""

from .machines import MACHINES, Machine, from_calibration, machine
from .model import Prediction, predict
from .traffic import Traffic, particle_traffic, shared_file_traffic

__all__ = ["MACHINES", "Machine", "Prediction", "Traffic", "from_calibration", "machine", "particle_traffic",
           "predict", "shared_file_traffic"]

"""Linearization of a model about an operating point and its frequency-domain analysis.

* :mod:`floatwind.linear.matrices`: the operating point (rest or static equilibrium) and the
  linear mass, damping and stiffness matrices of every degree of freedom from the model's own
  right-hand side (``simulate.System``), by central differences checked against a second step.
* :mod:`floatwind.linear.modes`: eigen-analysis (natural periods, damping ratios, mode shapes)
  with the potential-flow added mass and damping taken at each mode's own frequency.
* :mod:`floatwind.linear.rao`: response amplitude operators and response spectra;
  :mod:`floatwind.linear.morison`: Morison strips in the frequency domain (stochastic drag);
  :mod:`floatwind.linear.screening`: the sea states of a DLC set;
  :mod:`floatwind.linear.campbell`: the modes over rotor speeds.

Layer 7 (beside ``studies`` and ``dlc``): it reads ``simulate`` and the loads, nothing above.
docs/linearization.md gives the theory, the sources and what is refused.
"""

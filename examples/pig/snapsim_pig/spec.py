"""What the shared tuner knows of Pig's threshold player: the parameters it searches, with
their ranges (inside each parameter's valid range)."""

TITLE = "Pig"

SEARCHED = {"hold_at": (10.0, 35.0), "chase": (-5.0, 10.0)}

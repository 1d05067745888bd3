"""Dealing again: a misdeal, all passing, and omblanding (000 2.7; 001). Its keys (``misdeal``,
``all_pass``, ``omblanding``) and the redeal hook.

This package imports nothing: the model imports its ``keys`` from the floor under the rule families."""

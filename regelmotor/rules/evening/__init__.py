"""The evening around its deals: the table's sizes, who sits out at five and six (000 2.1), the next
dealer, the session's length and the evening's money. Its keys (``table``, ``session``, ``money``),
checks and the evening's rules the session and the score sheet ask.

This package imports nothing: the model imports its ``keys`` from the floor under the rule families."""

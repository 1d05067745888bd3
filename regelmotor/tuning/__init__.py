"""Rule search (``regelmotor tune``): which value of a ruleset's number gives the game a club wants.

``goal`` names what is wanted of one of ``compare``'s figures, ``race`` spends the deals on the values that
are close, ``search`` plans and checks the values and plays them on the same deals, ``report`` says the answer,
and ``club_file`` writes it into the club's file."""

"""Double-dummy analysis: every hand open, both sides at their best (``solver``), what each card of a
played deal cost (``analysis``), a hand record's table (``table``), and how a club reads them (``report``)."""

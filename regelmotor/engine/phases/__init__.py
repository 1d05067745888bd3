"""The phases of a deal, one module each, as mixins over ``engine.state.State``."""

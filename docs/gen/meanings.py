"""What each rule knob and each result column means, keyed by its name in the code.

The site lists names, types and defaults from the code itself; only the meanings are written
here. A knob or column without a meaning (or a meaning whose name the code no longer has)
stops the build and fails tests/test_docs.py, so the pages cannot drift from the code.
"""

from __future__ import annotations

# ---------------------------------------------------------------- rule knobs

KNOBS: dict[str, dict[str, str]] = {
    "snapshot": {
        "players": "Number of players, 2-5 (Step C; 5 plays the base cards only).",
        "photo_target": "Photographs that trigger the last round (Phase 4, Step C). None: the "
                        "rulebook's target for the player count (9, 8, 7, 7 for 2-5 players).",
        "dice": "Dice rolled by each player in a turn (Phase 2).",
        "reroll_cost": "Tracking tokens paid for one re-roll of a failed explore die "
                       "(Phase 3, Re-Rolls).",
        "experience_tokens": "Tokens gained by a player whose turn took no photograph "
                             "(Phase 4, Step A: Gain Experience).",
        "reserve_limit": "Most cards a player may hold in reserve (Option C).",
        "start_tokens": "Starting tracking tokens per seat. None: the rulebook's 2, 3, 4, ... "
                        "by seat.",
        "setup_cards": "Animal cards dealt face up onto their habitats at set-up (Set-Up 4).",
        "offers": "Other players may offer to reserve a drawn card (Option D).",
        "raccoon": "The Raccoon Expansion card is in the deck.",
        "assignments": "Players have assignments (cover photo and feature article); false is "
                       "part of Simpler Variant 1.",
        "tracking_tokens": "Tracking tokens are in play; false is Simpler Variant 2.",
        "reserving": "Cards may be reserved; false is Simpler Variant 3.",
        "place_tokens": "Tokens earned for each card placed into a habitat (Option A).",
        "offer_price": "Tokens an accepted offer pays the drawer (Option D).",
        "cover_points": "Prestige for photographing one of the assignment's cover animals.",
        "max_rounds": "Safety cap in rounds; a game still running is ended and flagged "
                      "`truncated` (the bundled policies never reach it).",
        "components": "The component set: \"standard\" (the bundled file), a TOML path or a "
                      "loaded set.",
    },
    "yosemite": {
        "players": "Number of players; Yosemite is a two-player game.",
        "tiles_dealt": "Animal tiles dealt to each player at set-up (step 2; some printings "
                       "deal 5).",
        "photos_removed": "Photo cards returned to the box unseen at set-up (step 7).",
        "judges": "Judge cards in play (set-up steps 9-10: 5 minus 3 removed).",
        "hand_limit": "Animal tiles a player may keep at Reset; more are discarded down to it "
                      "(at most 12).",
        "start_fish": "Fish on each player's Fishing Track at set-up (step 12).",
        "photo_slots": "Face-up photo cards available (set-up step 8).",
        "wilds": "Camera: two tiles of one animal may stand in for any animal.",
        "max_turns": "Safety cap in turns; a game still running is ended and flagged "
                     "`truncated`.",
        "components": "The component set: \"standard\" (the bundled file), a TOML path or a "
                      "loaded set.",
    },
    "shutterbug": {
        "players": "Number of players, 2-6; 1 plays the solo variant (not a rulebook rule).",
        "cooperative": "The cooperative variant (from other public sources, not the "
                       "rulebook).",
        "team_game": "Two players move two pawns each (the rulebook's two-player rules); "
                     "false gives one pawn each.",
        "rounds": "Rounds in a game (the rulebook's eight).",
        "populate": "Spaces holding photo tiles after Step 1. None: 7 (solo 10).",
        "start_tips": "Tip cards dealt to each player at set-up. None: 3 (solo 4).",
        "hand_limit": "Tip cards kept at Step 3; more are discarded down to it.",
        "max_steps": "Most spaces a pawn moves in a turn.",
        "pass_tips": "Tip cards drawn for moving through a city.",
        "end_tips": "Tip cards drawn for ending a move in a city.",
        "turn_tips": "Most city tips gained in one turn; 0 means no limit. None: 4 with two "
                     "pawns each, else no limit.",
        "city_bonus": "Points per pawn ending the game in a city. None: 2, or 1 with two "
                      "pawns each.",
        "tip_swaps": "Tip swaps allowed per turn. None: 1 solo, else 0.",
        "trading": "Players may trade tips when a pawn meets another (Step 2, A).",
        "random_cities": "Starting cities are drawn at random instead of chosen in turn "
                         "order.",
        "keep_of": "Assignments offered to each player, of which one is kept. None: 3 solo, "
                   "else 1.",
        "side_job_markers": "Side-job markers per player: how many side jobs one can score.",
        "goal_side_jobs": "All-or-nothing goal: side jobs needed besides the assignment. None: "
                          "every markable side job.",
        "components": "The component set: \"standard\" (the bundled file), a TOML path or a "
                      "loaded set.",
    },
}

# ---------------------------------------------------------------- result columns

# Every game's table starts with these and ends with `won`.
_COMMON = {
    "game": "Game index within the run, 0-based; game i depends only on the config, the "
            "line-up, the seed and i.",
    "seat": "Seat, 0-based in turn order (seat 0 starts, except in Yosemite: see `first`); "
            "reports, summaries and play number seats from 1, so this seat 0 is their seat 1 "
            "(Reading a report: Seat numbers).",
    "players": "Number of players in the game.",
    "policy": "Name of the policy at this seat (a repeated policy gets a #seat suffix).",
    "won": "Share of the win: 1 for a sole winner, 1/k for each of k tied winners, else 0.",
}

_YOSEMITE_ANIMALS = {"fox": "red fox", "sheep": "bighorn sheep", "bear": "black bear",
                     "snake": "rattlesnake", "cougar": "cougar"}

COLUMNS: dict[str, dict[str, str]] = {
    "snapshot": {
        **_COMMON,
        "score": "Final prestige in points: prestige + awards + cover + article.",
        "prestige": "Points from the prestige printed on the photographed animal cards.",
        "awards": "Points from award tokens claimed (Phase 4, Step B).",
        "cover": "Points from the cover photo (0 or `cover_points`).",
        "article": "Points from the feature article chart for the assignment's symbols.",
        "photos": "Photographs taken (cards in the portfolio).",
        "reserved_left": "Cards still in reserve at the end (they score nothing).",
        "tokens": "Tracking tokens held at the end (the first tie-break).",
        "turns": "Turns this player took.",
        "draws": "Cards this player drew in research (Phase 1).",
        "placed": "Cards this player placed into habitats.",
        "spooks": "Turns this player's research ended in a spook.",
        "attempts": "Photograph attempts (one per animal with dice on it in an explored "
                    "habitat).",
        "explore_fails": "Habitats whose exploration failed, re-rolls included.",
        "rerolls": "Explore dice re-rolled (each one paid `reroll_cost` tokens).",
        "n_awards": "Award tokens claimed (count, not points).",
        "tokens_from_placing": "Tokens earned by placing cards.",
        "tokens_from_experience": "Tokens earned from Gain Experience.",
        "tokens_from_offers": "Tokens paid to this player for accepted offers on cards it "
                              "drew.",
        "tokens_paid_offers": "Tokens this player paid when its offers were accepted.",
        "tokens_spent_photos": "Tokens on cards that were photographed (spent to the bank).",
        "tokens_spent_rerolls": "Tokens kept by the bank after this player's re-rolls.",
        "offers_made": "Offers this player made on others' drawn cards.",
        "offers_accepted": "Offers of this player that were accepted.",
        "assignment": "Index of this player's assignment in the component file, 0-based.",
        "rounds": "Rounds played in the game.",
        "end_round": "Round in which the photo target was reached, 1-based (the last round "
                     "follows it).",
        "truncated": "1 if the game hit the `max_rounds` safety cap, else 0.",
    },
    "yosemite": {
        **_COMMON,
        "score": "Final points: photo_points + camping + judges + landmarks.",
        "photo_points": "Points from the photo cards taken.",
        "camping": "Points from the Camping Track position plus one per tent token.",
        "judges": "Points from judge cards won.",
        "landmarks": "Points from the landmark tokens held (landmark chart).",
        "photos": "Photo cards taken.",
        "tents": "Tent tokens taken (1 point each).",
        "fish": "Fish left on the Fishing Track at the end.",
        "hand": "Animal tiles in hand at the end.",
        "landmark_tokens": "Landmark tokens held at the end.",
        "first": "1 if this seat took the first turn, else 0.",
        "turns": "Turns played in the game, both players together.",
        "player_turns": "Turns this player took.",
        "fish_eaten": "Fish eaten to move (Eat Fish phase).",
        "explore_a": "Turns spent on Explore A (move one space, gain a fish).",
        "explore_c": "Turns spent on Explore C (take a landmark token).",
        "pushes": "Times this player's animal move pushed the opponent's pawn.",
        "discards": "Tiles discarded down to the hand limit at Reset.",
        "truncated": "1 if the game hit the `max_turns` safety cap, else 0.",
        **{f"use_{k}": f"Turns this player moved as the {name} (Explore B)."
           for k, name in _YOSEMITE_ANIMALS.items()},
        **{f"use_points_{k}": f"Photo points taken on turns this player moved as the {name}."
           for k, name in _YOSEMITE_ANIMALS.items()},
        "bonus_fish": "Tiles collected with the fish bonus icon.",
        "bonus_tent": "Tiles collected with the tent bonus icon.",
        "bonus_camera": "Tiles collected with the camera bonus icon.",
        **{f"judge_{k}": f"The {name} judge: -1 not in play, 1 won by this player, 0 not."
           for k, name in _YOSEMITE_ANIMALS.items()},
        **{f"landmark{i}": f"Points scored by landmark token {i} (component file order); -1 "
                           f"if this player does not hold it."
           for i in range(5)},
    },
    "shutterbug": {
        **_COMMON,
        "score": "Final points: assignment_points + side_job_points + city_points.",
        "assignment_points": "Points from the secret assignment, on its better side.",
        "side_job_points": "Points from the side jobs marked.",
        "city_points": "Points for pawns ending in a city (cooperative: the team's total).",
        "photos": "Photo tiles taken.",
        "quality": "Total photo quality of the tiles taken (the score tie-break).",
        "side": "Side of the assignment scored: 0 left, 1 right.",
        "creatures_met": "Creatures of the scored side at their minimum value (0-3).",
        "side_jobs": "Side jobs completed.",
        "jobs_mask": "Side jobs completed as a bitmask (bit k: side job k of the component "
                     "file).",
        "goal": "All-or-nothing variants: 1 if the goal was reached, else 0.",
        "tips_drawn": "Tip cards drawn in cities.",
        "tips_paid": "Tip cards discarded to take photos.",
        "tips_discarded": "Tip cards discarded down to the hand limit (Step 3).",
        "trades": "Trades this player started.",
        "traded_with": "Trades other players started with this player.",
        "swaps": "Tip swaps made (solo variant).",
        "steps": "Spaces moved over the game.",
        "turns": "Turns this player took.",
        "hand": "Tip cards in hand at the end.",
        "assignment": "Index of this player's assignment in the component file, 0-based.",
        "rounds": "Rounds played in the game.",
    },
}

// Package selfplay plays engine games in parallel and turns them into
// training data and match statistics: self-play of one evaluation table
// per variant, material-imbalance matches, and matches of table A against
// table B with an optional SPRT stop. The statistics come from package
// selfplay/elo.
//
// # Games
//
// Every stream (a variant, an imbalance or a match) is played as game
// pairs: one opening, played twice with the colours swapped. The first
// player is White in the pair's first game and Black in its second. Every
// seed a pair uses (its opening walk, the players' tie-breaks, the
// data-set sampling) derives from the run seed, the stream's name and the
// pair index only (FNV-1a and SplitMix64, see deriveSeed), and players
// search under node or depth limits only, each game with fresh players.
// A run's outputs therefore do not depend on the number of workers, on
// interruptions or on the machine.
//
// Players are built by a PlayerFactory; SearchFactory (the default) wraps
// tamerlane/engine/search and tamerlane/engine/eval, GreedyFactory is a
// fast one-ply player for tests.
//
// # Run directory
//
// Run writes into a run directory:
//
//	config.yaml         the effective configuration (defaults filled in, absolute paths)
//	run.json            {"format", "kind", "config_hash", "shard", "default_tables"}:
//	                    the identity of the run
//	streams.json        the run's plan: the streams it plays (see Plan), written when it starts
//	summary.json        statistics of every stream (see Summary)
//	timing.json         speed of the last session (see Timing); the only file that
//	                    differs between equal runs
//	<stream>/journal.jsonl    one line per finished game pair (append-only)
//	<stream>/games.pgn        the games (regenerated from the journal)
//	<stream>/positions.jsonl  the sampled positions (regenerated from the journal)
//
// <stream> is the stream's name in lower case with other characters than
// letters, digits, '.', '_' and '-' replaced by '-' (e.g. "n-vs-c").
//
// Durability: a journal line is written with one write and fsync'ed; the
// other files are written to a temporary file in the same directory,
// fsync'ed and renamed. Running the same command again resumes: the
// journals' pairs are kept and only the missing pairs are played. After a
// crash (kill -9) a torn or corrupt last journal line is dropped and its
// pair played again, and the temporaries the crash left are removed; a
// corrupt line elsewhere is an error naming the file and the line. A
// directory that holds another configuration (another config_hash) with
// journaled pairs, or another kind of run, is refused. The configuration
// hash covers everything that decides the games, with tables and opening
// files by content (SHA-256), and leaves out workers and shard. A stream
// without a table file plays the table embedded in the binary, which the
// hash cannot see: default_tables records its digest per variant
// (eval.Weights.Digest: the table's non-zero weights, so that a term added
// at weight 0 or a new provenance does not count as another player), and a
// resume by a binary embedding another table is refused (a run recorded
// before the digests were kept resumes unchecked; one recorded with the
// earlier file digests, "sha256:...", is refused by every newer binary).
//
// Readers of a run (tuning, piece values, paired comparisons, move
// quality, Merge) take its streams from streams.json, never from the
// configuration (ReadPlan makes the plan of a run begun before streams.json
// was written from its config.yaml), and replay its games through one
// iterator, Games: a finished run's games as its outputs hold them (by
// pair, an SPRT's cut applied), a run still playing or stopped the games
// its journals hold so far; results are read by WhiteScore.
// InterimRecords gives the data-set records of a run still playing.
//
// # Journal format
//
// Each line of journal.jsonl is a JSON object:
//
//	{"pair": 17, "seed": 1234, "games": [GAME, GAME]}
//
// where games[0] has the first player White and each GAME is
//
//	{"fen": root FEN, "book": ["e2e4", ...] opening moves (coordinates),
//	 "moves": [{"m": "c7c5", "s": 23, "mt": 0, "d": 9, "n": 5012}, ...],
//	 "result": "1-0" | "0-1" | "1/2-1/2", "termination": "checkmate" | ...,
//	 "samples": [4, 9, ...], "ms": 2811}
//
// "moves" are the searched moves with the mover's score in centipawns
// (s), mate distance (mt, omitted when none), depth (d) and nodes (n);
// "samples" are indices into "moves" of the positions (before the move)
// that go into the data set; "ms" is the game's wall time. Terminations
// are the engine's reasons (engine.Reason: "checkmate", "stalemate",
// "citadel", "threefold repetition", "move-count rule", "bare king",
// "insufficient material", "royals captured") or "adjudication: draw",
// "adjudication: resign", "max plies".
//
// # PGN
//
// games.pgn holds the games in pair order, first game first. Tags: Event
// (the stream), Site "?", Date "????.??.??", Round "<pair+1>.<game+1>",
// White, Black, Result, Variant, Rules (the rule options, when the
// variant has any), SetUp and FEN (when the game does not start from the
// variant's start position), GameId (2·pair+game, as in the data set),
// PlyCount, Termination. Moves are in SAN (engine.Position.SAN); every
// move carries a comment: {book} for opening moves, otherwise the
// mover's score in pawns and the depth, {+0.25/12}, or a mate {+M3/12}.
// ReadPGN and ScanPGN read the files back; PGNGame.Replay plays a game
// through the rules engine.
//
// # Data set
//
// positions.jsonl holds one Record per line (see Record for the fields);
// ReadDataset, ScanDataset and Records read it back.
//
// # Summary
//
// summary.json is a Summary: per stream the game and ply counts, the
// results from White's view and from the first player's view, the
// pentanomial pair counts, the first player's mean score with its 95%
// interval and standard error ({"value","lo","hi","se"}, stats.Interval;
// files written before 2026-11 name them mean, low and high and still
// read), logistic and normalized Elo of the first player over the
// second with 95% margins, White's Elo advantage, the terminations and,
// for matches, the SPRT state. For self-play the first-player figures
// measure nothing but noise; for an imbalance they are the score of the
// first side; for a match they are A against B. Infinite values are
// written as null. Games per hour are in timing.json, so that
// summary.json of equal runs is byte-identical.
//
// # Sharding
//
// Config.Shard (tamerlane selfplay --shard i/n, or --shards n with the
// index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID) plays only the
// pairs with index % n == i. Merge joins the shard directories after
// checking that they share one configuration and hold every pair exactly
// once, and writes the same outputs as an unsharded run.
//
// # Matches and SPRT
//
// A match plays A against B like any stream. With an SPRT the decision is
// taken on the pairs in index order: after each finished pair the
// longest run of consecutive finished pairs from pair 0 is tested
// (pentanomial, normalized Elo, as fastchess), the match stops at the
// first prefix on which the test decides, and only that prefix is in the
// outputs. Pairs are started in index order, so at most Workers pairs
// beyond the decision are wasted. Match is the library entry point.
//
// # Command line
//
//	tamerlane selfplay -c CONFIG -o DIR [--shard i/n | --shards n] [--workers N] [--json]
//	tamerlane selfplay -o DIR --variant V [--pairs N] [--nodes N] [--workers N] [--seed N] [--rules R] [--weights FILE]
//	tamerlane selfplay -o DIR        (resume the run in DIR)
//	tamerlane match --variant V --a TABLE --b TABLE [--nodes N] [--sprt elo0,elo1] [--pairs N] [--rules R] [-o DIR]
//	tamerlane merge -o DIR SHARD_DIR...
//
// Progress goes to standard error: a progress bar with an ETA on a
// terminal, a log line every 10 s or 5% of the pairs otherwise.
package selfplay

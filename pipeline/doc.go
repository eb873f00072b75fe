// Package pipeline is the overnight pipeline: one command ("tamerlane
// run") plays generations of self-play, tunes the evaluation tables on the
// games, exports them, verifies each new table in a match against the
// current one and accepts it or not, and writes a report.
//
// # Generations
//
// For each generation g = 1..G, in the run directory DIR:
//
//  1. selfplay: the current tables (DIR/tables/<variant>.yaml) are copied
//     to gen-00g/base/ and self-play runs with them into gen-00g/selfplay
//     (selfplay.Run with the config's selfplay section, seed + g - 1).
//  2. measure: the prior-free piece values of the generation's games
//     (values.Measure: the regression on the self-play games and the
//     imbalance matches) into gen-00g/measured-values.json, which the
//     report reads.
//  3. tune: tune.Run on gen-00g/selfplay (and on the previous generations'
//     self-play data when history says so) into gen-00g/tune, starting
//     from (and, by the prior, pulled towards) the base tables; then
//     values.WriteTuned writes the values tables and plots there (the
//     tuned material weights as piece values beside the imbalance fit,
//     values.FitImbalances, and the published figures). A
//     variant whose fit fails (unusable weights, no positions) is listed
//     in tune.json's unfitted and keeps its current table this
//     generation: no export, no match, a rejection naming the reason.
//  4. export: tune.Export writes gen-00g/tables/<variant>.yaml.
//  5. verify: per variant a match of the new table (A) against the base
//     table (B) at the same node budget, game pairs from shared
//     openings, stopped by an SPRT (pentanomial, normalized Elo, as
//     fastchess) or at verify.pairs pairs, into gen-00g/match/<variant>.
//  6. accept: per variant the accept rule decides; an accepted table is
//     copied to DIR/tables/<variant>.yaml and becomes current. The
//     decisions go to gen-00g/accepted.json.
//  7. vs-gen0: per variant whose table this generation accepted, a match
//     of the new table (A) against the generation-0 table (B), a fixed
//     verify.vs_gen0.pairs pairs (no SPRT, so the estimate is not biased
//     by an early stop) at verify.nodes from the verification's
//     openings, into gen-00g/vs-gen0/<variant>. While no earlier
//     generation accepted a table, the verification match was already
//     new against generation 0: it is reused, not played again (so
//     generation 1 never plays this match). An unchanged table keeps its
//     last measurement.
//  8. anchor (only with verify.anchor): per anchor variant the current
//     table (A) plays the outside UCI engine (B) for anchor.pairs pairs,
//     our side at verify.nodes, into gen-00g/anchor/<variant>. The
//     engine's crash, illegal move or time loss loses that game (its
//     Termination says which) and never fails the pipeline.
//
// Accept rules: "pass" (default) accepts only when the SPRT accepted H1;
// "not-worse" accepts unless the SPRT accepted H0, so a match that reached
// its pair cap undecided counts as not worse; "always" accepts every new
// table (the match is still played and reported when verify.pairs > 0).
// With verify.pairs 0 no match is played and only "always" accepts.
//
// Generation 0 is the initial tables: the embedded defaults
// (data/weights) or the files given in the config's tables section.
//
// # Resuming
//
// Every output is written to a temporary file and renamed. After a step's
// outputs are complete its record is appended to gen-00g/steps.json
// (atomically); that record is the step's marker. Running the same
// command again skips the recorded steps and reruns the first unrecorded
// one from its start; self-play and matches resume inside from their
// journals, and every other step is idempotent. The final outputs equal
// those of an uninterrupted run: every seed derives from the
// configuration, and the tuned tables are dated with the run's creation
// time (pipeline.json), not the step's. A directory holding a run of
// another configuration (another hash, see Config.Hash) is refused; the
// number of generations is not part of the hash, so raising it extends a
// finished run. The hash covers the generation-0 tables by content, the
// embedded ones too: a binary rebuilt with other data/weights (after
// "tamerlane apply") refuses to resume a run started with the old ones. A
// lock file keeps two pipelines out of one directory.
//
// # Run directory
//
//	pipeline.json        {"format", "name", "config_hash", "config_file", "created", "variants"}
//	config.yaml          the configuration file as given
//	tables/<variant>.yaml          the current tables
//	gen-000/tables/<variant>.yaml  the generation-0 tables
//	gen-00g/steps.json             finished steps (the step markers) with their wall times
//	gen-00g/base/<variant>.yaml    the tables current when the generation started
//	gen-00g/selfplay/              a selfplay run directory (PGN, positions.jsonl, summary.json)
//	gen-00g/measured-values.json   the prior-free piece values of the generation's games (values.Document)
//	gen-00g/tune/                  tune.json, tables/, values.json, values.md, values-<variant>.png/.svg
//	gen-00g/tables/<variant>.yaml  the exported tables
//	gen-00g/match/<variant>/       the verification match (a selfplay run directory)
//	gen-00g/accepted.json          the accept decisions (see Acceptance)
//	gen-00g/vs-gen0/<variant>/     the match against generation 0 (a selfplay run directory)
//	gen-00g/anchor/<variant>/      the match against the outside anchor (a selfplay run directory)
//	report.md, report.json         the report, rebuilt after every step
//	values-<variant>.png/.svg      measured piece values per generation (regression, imbalance) against the published values
//	elo.png/.svg                   Elo of the accepted tables per generation: cumulative and measured against generation 0
//	table-values-<variant>.png/.svg  the engine tables' tuned material values per generation (not a measurement)
//
// # Report
//
// report.md leads with the measured piece values: per variant the newest
// generation's prior-free values (package values: the regression on the
// self-play games and the imbalance matches, 95% intervals, their
// agreement, the published figures; P=1) and the plot of them per
// generation, values-<variant>.png. report.json (see Report) and
// report.md hold the configuration summary and, per generation and
// variant: the self-play summary (games, W/D/L, mean length, positions),
// the measured values (VariantReport.Measured), the tuning summary
// (positions, K, train and validation MSE before and after, or why the
// fit was unusable), the engine table's piece-values table (values.ValueRows,
// read from gen-00g/tune/values.json:
// Texel estimates with 95% intervals, imbalance estimates when the config
// plays imbalances, the published value and its source, the ratio), the
// exported table, the match (W/D/L, pentanomial, Elo and normalized Elo
// with 95% margins, LLR, decision), the accept decision, the match
// against generation 0 and the match against the anchor; and per
// variant and generation two Elo figures of the current table over
// generation 0: the cumulative one (Report.Elo: the sum of the accepted
// generations' verification matches, which compounds their errors and
// assumes Elo is additive) and the measured one (Report.EloVsGen0: one
// match of the two tables, with its 95% interval). A summary table gives
// the anchor matches' Elo with 95% intervals and the engine's forfeits.
// Paths in report.json are relative to the run directory; only its timing
// fields (created, updated, generations[].timing) differ between equal
// runs. The report only reads files: the measured values come from
// gen-00g/measured-values.json (the measure step), the tuned ones from
// gen-00g/tune/values.json (the tune step).
//
// # Configuration
//
// A strict YAML file (unknown fields, wrong types and semantic mistakes are
// errors naming the file, the line and the field):
//
//	name: default            # the run's name (default: the file's base name)
//	generations: 1           # default 1; not hashed: raise it to extend a run
//	history: 0               # also tune on the data of this many previous generations (-1: all)
//	accept: pass             # pass | not-worse | always
//	tables:                  # generation-0 tables (default: embedded data/weights)
//	  chess: my-chess.yaml   # relative to the config file
//	selfplay:                # selfplay.Config syntax (see package selfplay), except:
//	  seed: 1                #   no table (the pipeline sets the current one),
//	  nodes: 1500            #   no matches (see verify), no shard; imbalances must
//	  variants:              #   be of listed variants; each variant once
//	    - {variant: chess, pairs: 40}
//	tune:                    # tune.Config syntax, except tables (the current ones);
//	  free: [material.]      #   variants default to the self-play variants
//	  prior_sd: 40
//	verify:
//	  pairs: 60              # pair cap per variant (default 100; 0: no matches)
//	  nodes: 1500            # default: selfplay.nodes
//	  sprt: {elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05}   # defaults; model: normalized | logistic
//	  openings_file: ""      # default: the variant's self-play openings_file, else random walks
//	  vs_gen0:
//	    pairs: 50            # default min(50, verify.pairs); 0: no match against generation 0
//	  anchor:                # optional; none by default (CI has no outside engine)
//	    engine: {cmd: /path/fairy-stockfish, options: {Hash: "16"}, nodes: 20000}
//	    variants: [chess, shako]   # default: the pipeline's variants; the engine must know them
//	    pairs: 50            # default 50
//
// vs_gen0 is hashed only when it differs from its default, so runs begun
// before it existed keep their configuration hash and resume (their
// finished generations then run the two new steps). The anchor engine
// uses selfplay.EngineSpec (cmd, args, options, name, nodes | depth |
// movetime | tc, timeout_ms); without a limit of its own it plays at
// verify.nodes. Imbalance streams of the selfplay section may name an
// outside engine too (selfplay.ImbalanceConfig: engine, first_engine,
// second_engine).
//
// Parse decodes the file strictly (internal/yamlx; the selfplay: and tune:
// sections by their own packages, with the file's lines), then
// Config.Defaults fills in what is left out and Config.Validate checks
// the result; a Config built or edited in code goes through the same two.
//
// The repository's configs directory holds default.yaml (a few minutes),
// overnight.yaml (all variants, about eight hours on two cores) and
// calibration-chess.yaml (checks that the orthodox values are recovered).
//
// # Command line
//
//	tamerlane run [-c CONFIG] [-o DIR] [--workers N] [--quiet]
//	tamerlane apply --run DIR [--to data/weights]
//
// apply copies the run's current tables into data/weights (see Apply).
package pipeline

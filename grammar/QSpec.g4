// The .qspec language: one reviewed statement of how a model is quantized.
// docs/language.md is the reference for every construct below.
grammar QSpec;

// A ';' may end any top-level item, including those that end in '}'.
spec        : versionDecl? (item | ';')* EOF ;

versionDecl : 'qspec' INT ';'? ;

item
  : includeDecl
  | modelDecl
  | defaultsDecl
  | tiersDecl
  | protectDecl
  | groupDecl
  | overrideDecl
  | targetDecl
  | tuneDecl
  | allowDecl
  ;

includeDecl  : 'include' STRING ';'? ;

// allow amct-channel-wise because "Linear is per tensor on AMCT by design"
// (a warning group or one warning ID, silenced in this spec; the reason is required)
allowDecl    : 'allow' ident 'because' STRING ';'? ;

// model "Qwen3-32B" { inventory "model.safetensors.index.json"; blocks "model.layers.{i}" }
modelDecl    : 'model' STRING? block ;

// defaults { tier int8; weight int8 per_channel symmetric minmax; act int8 per_tensor minmax }
defaultsDecl : 'defaults' ruleBody ;

// tiers int8 < int16 < fp16 < float
tiersDecl    : 'tiers' ident ('<' ident)* ';'? ;

// protect "lm_head", "model.layers.*.mlp.gate", type Embedding
protectDecl  : 'protect' selector (',' selector)* ';'? ;

groupDecl
  : 'group' 'same_score' ('from' STRING)? ';'?                           # sameScoreGroup
  | 'group' ident '=' STRING (',' STRING)* ';'?                          # namedGroup
  | 'group' STRING ('with' STRING)+ ';'?                                 # withGroup
  ;

// override type Linear { ... }   override name "a.*", "b" priority 2 { ... }
overrideDecl : 'override' overrideSubject ('priority' INT)? ruleBody ;
overrideSubject
  : 'type' ident                        # typeSubject
  | 'name' STRING (',' STRING)*         # nameSubject
  ;

ruleBody     : '{' (ruleStmt ';'?)* '}' ;
ruleStmt
  : 'tier' ident                        # tierStmt
  | role=('weight' | 'act') recipeItem+ # recipeStmt
  | ident block                         # targetOptions
  ;
// A recipe's words run until the next statement: 'tier', 'weight' and 'act' start one, so they
// are not recipe words (otherwise `weight int8 per_channel` NEWLINE `act int8` would be read as
// one weight recipe; statements need no ';').
recipeItem   : recipeWord ('=' value)? ;
recipeWord
  : IDENT
  | 'model' | 'defaults' | 'tiers' | 'protect' | 'group' | 'same_score' | 'from' | 'with'
  | 'override' | 'type' | 'name' | 'priority' | 'target' | 'tune'
  | 'metric' | 'levels' | 'exclude' | 'raise' | 'to' | 'first' | 'last' | 'top' | 'include'
  | 'qspec' | 'allow' | 'because'
  ;

// target msmodelslim { apiversion modelslim_v1; save ascendv1_saver }   target amct qat { ... }
targetDecl   : 'target' ident ident? block ;

tuneDecl     : 'tune' '{' (tuneStmt ';'?)* '}' ;
tuneStmt
  : 'metric' ident op=('>=' | '<=' | '>' | '<') number
      (pct='%' of=ident base=ident)?                            # metricStmt
  | 'levels' levelExpr (',' levelExpr)*                         # levelsStmt
  | 'exclude' STRING (',' STRING)*                              # tuneExcludeStmt
  | 'raise' STRING (',' STRING)* 'to' ident                     # tuneRaiseStmt
  | setting                                                     # tuneSetting
  ;
levelExpr    : levelTerm ('+' levelTerm)* ;
levelTerm    : which=('first' | 'last' | 'top') INT pct='%'? | STRING ;

// Generic key/value settings, checked by the frontend against each block's schema.
block        : '{' (setting ';'?)* '}' ;
setting
  : ident value (',' value)*
  | ident block
  ;
value        : STRING | number | ident ;
number       : '-'? (INT | FLOAT) ;

selector
  : STRING                              # nameSelector
  | 'type' ident                        # typeSelector
  ;

// Keywords are reserved only where the grammar needs them; elsewhere they are names.
ident
  : IDENT
  | 'model' | 'defaults' | 'tiers' | 'protect' | 'group' | 'same_score' | 'from' | 'with'
  | 'override' | 'type' | 'name' | 'priority' | 'tier' | 'weight' | 'act' | 'target' | 'tune'
  | 'metric' | 'levels' | 'exclude' | 'raise' | 'to' | 'first' | 'last' | 'top' | 'include'
  | 'qspec' | 'allow' | 'because'
  ;

INT          : [0-9]+ ;
FLOAT        : [0-9]+ '.' [0-9]* ([eE] [+-]? [0-9]+)? | [0-9]+ [eE] [+-]? [0-9]+ | '.' [0-9]+ ([eE] [+-]? [0-9]+)? ;
IDENT        : [A-Za-z_] [A-Za-z0-9_.-]* ;
STRING       : '"' ( '\\' . | ~["\\\r\n] )* '"' ;
UNTERMINATED_STRING : '"' ( '\\' . | ~["\\\r\n] )* -> channel(2) ;
LINE_COMMENT : '//' ~[\r\n]* -> channel(HIDDEN) ;
BLOCK_COMMENT: '/*' .*? '*/' -> channel(HIDDEN) ;
WS           : [ \t\r\n]+ -> channel(HIDDEN) ;
// Anything else is one bad character; the parser reports it with its location.
BAD_CHAR     : . -> channel(2) ;

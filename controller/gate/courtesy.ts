import type { Locale } from "#controller/i18n/locale";
import { courtesyEmoji } from "#controller/text/small-words";

/**
 * The model's sentences the gate shows as they are without a fact behind them (contract §8.2): courtesy, and
 * nothing else, in each of the principal's languages. A closed set of whole phrases, not of words — "sorry" and
 * "I can" are each harmless, "Sorry, I can." answers a question — so a sentence is courtesy only when each of its
 * comma-separated parts is one of these
 * phrases, word for word. There is no verb of state or movement, no affirmation ("yes", "sure", "of course", "no
 * problem"), no word of a delivery, money, time or a number, and no pronoun that could stand for an order; an
 * order or an item is named only in the questions that ask the principal which one they mean. Anything else a model
 * writes is a claim, and is held to the facts (gate/reading.ts).
 *
 * Each template is expanded once at load: `(a|b|)` is a choice, where an empty choice leaves the part out.
 */

/** A locale's courtesy: what a reply may open with, what it may close with, and what it may say after a change it sent. */
interface CourtesyTemplates {
  /** Greetings, thanks, apologies, sympathy and "don't worry": before the facts. */
  opening: string[];
  /** Offers of more help and goodbyes: after the facts. */
  closing: string[];
  /** "There's no need to ask again": true only on a turn that sent a change which completed or is being settled. */
  afterChange: string[];
}

const english: CourtesyTemplates = {
  opening: [
    "(hi|hello|hey|good morning|good afternoon|good evening)( there|)",
    "(thanks|thank you|many thanks)( so much| very much| again|)( for (your patience|waiting|bearing with (me|us)|your message|getting in touch|reaching out|asking|letting me know|your understanding|holding on|shopping with us|contacting us|your order|the details)|)",
    "(i'm|i am|we're|we are)( so| very| really| truly|) sorry( for (the|any) (wait|inconvenience|trouble|confusion|hassle|frustration|worry)| about (that|this|the (wait|inconvenience|trouble|confusion|hassle))| to hear (that|this|about (that|this))| for the trouble|)",
    "(sorry|apologies|my apologies|our apologies|i apologise|i apologize|we apologise|we apologize)( for (the|any) (wait|inconvenience|trouble|confusion|hassle)| about (that|this|the (wait|inconvenience|trouble|confusion))|)",
    "i( completely| totally| can| fully|) understand( (how|that this is|this is|that's|that it's) (frustrating|annoying|inconvenient|worrying|stressful)| how (frustrating|annoying|inconvenient|worrying|stressful) (that|this) (is|must be|can be)| your (concern|frustration)| why you're asking|)",
    "(that|this) (must be|is|sounds|can be) (frustrating|annoying|worrying|inconvenient|stressful)",
    "i know how important (this|that) is( to you|)",
    "(i'm|i am|we're|we are) (happy|glad) to help( with (that|this)|)",
    "(i'd|i would|we'd|we would) be (happy|glad) to help( with (that|this)|)",
    "(happy|glad) to help",
    "(great|good) question",
    "(please |)(don't|do not) worry",
    "no need to worry",
  ],
  closing: [
    "(is there|was there) anything else( (i|we) can (help you with|help with|do for you)|)( today|)",
    "anything else( (i|we) can (help you with|help with|do for you)|)( today|)",
    "(please |just |)(let me know|let us know|feel free to let me know) if (there is|there's) anything else( (i|we) can (help you with|help with|do for you)|)",
    "(please |just |)(let me know|let us know|feel free to let me know) if you (need|have) anything else",
    "(please |just |)(let me know|let us know|feel free to let me know) if you have (any|any other|any more|more) questions",
    "(please |)feel free to (ask|reach out|get in touch)( if you (need|have) anything else| if you have (any|any other|any more) questions|)",
    "(please |)(don't|do not) hesitate to (ask|reach out|get in touch|contact (me|us))( if you (need|have) anything else| if you have (any|any other|any more) questions|)",
    "if you (need|have) anything else",
    "if you have (any|any other|any more) questions",
    "(just |please |)(ask|let me know|let us know|get in touch|reach out)",
    "(i'm|i am|we're|we are) (here|always here|here to help)( if you need (anything else|more help)| if you have (any|any other|any more) questions|)",
    "(i'm|i am|we're|we are) always (happy|glad) to help",
    "(glad|happy) (i could|to have) help(ed|)",
    "(you're|you are)( very| most|) welcome",
    "(have|enjoy) a (good|great|nice|lovely|wonderful) (day|evening|weekend|afternoon|morning)",
    "enjoy the rest of your (day|evening|weekend)",
    "(i |we |)hope (this|that) (helps|answers your question|clears things up)",
    "(take care|all the best|best wishes|kind regards|best regards|regards|cheers|bye|goodbye|speak soon|talk soon)",
    // Asking the principal which order or item they mean, or for its number: a question that says nothing of it.
    "which (order|item|one)( (do you mean|is it about|are you asking about|is this about|would you like me to look at)|)",
    "(could|can|would) you (please |)(tell me|give me|share|send me|confirm) (the|your) order (number|id)",
    "(what is|what's) (the|your) order (number|id)",
    "do you have (the|your) order (number|id)",
  ],
  afterChange: [
    "(there's|there is) no need to (ask|write|get in touch) again",
    "you (don't|do not) need to (ask|write|get in touch) again",
  ],
};

/** The same kinds of courtesy in the other languages, each claiming nothing. */
const templates: Readonly<Record<Locale, CourtesyTemplates>> = {
  en: english,
  de: {
    opening: [
      "(hallo|hi|guten tag|guten morgen|guten abend)",
      "(danke|danke schön|vielen dank|herzlichen dank)( für (ihre|deine) (geduld|nachricht|anfrage)| fürs warten|)",
      "(es|das) tut (mir|uns)( sehr| wirklich|) leid( wegen der unannehmlichkeiten|)",
      "(entschuldigung|entschuldigen sie bitte)( die unannehmlichkeiten|)",
      "ich verstehe( das| das gut| (ihre|deine) sorge| (ihren|deinen) ärger|)",
      "(keine sorge|machen sie sich keine sorgen|mach dir keine sorgen)",
      "ich helfe (ihnen|dir) gern(e|)",
    ],
    closing: [
      "kann ich (ihnen|dir) sonst noch (helfen|irgendwie helfen)",
      "(gibt es|haben sie|hast du) sonst noch (etwas|fragen)",
      "melden sie sich gern(e|)( jederzeit| bei fragen|)",
      "(schreiben sie|schreib) (mir|uns) gern(e|)( jederzeit| bei fragen|)",
      "(einen |)(schönen|guten) (tag|abend)( noch|)",
      "(viele grüße|freundliche grüße|mit freundlichen grüßen|beste grüße|tschüss|auf wiedersehen)",
      "ich hoffe( das hilft( ihnen| dir|)|)",
      "das hilft( ihnen| dir|) hoffentlich",
      "gern(e|) geschehen",
    ],
    afterChange: ["sie müssen nicht noch einmal fragen", "du musst nicht noch einmal fragen"],
  },
  fr: {
    opening: [
      "(bonjour|bonsoir|salut)",
      "merci( beaucoup| bien|)( (pour|de) votre (patience|message|compréhension)| d'avoir patienté|)",
      "(je suis|nous sommes)( vraiment| sincèrement| très|) (désolé|désolée|désolés)( pour (le|ce) (désagrément|dérangement|souci)|)",
      "(désolé|désolée)( pour (le|ce) (désagrément|dérangement|souci)|)",
      "(toutes mes|toutes nos) excuses( pour (le|ce) (désagrément|dérangement)|)",
      "je comprends( tout à fait| parfaitement| bien|)( votre (inquiétude|frustration)|)",
      "(pas d'inquiétude|ne vous inquiétez pas)",
      "je suis (là pour vous aider|ravi de vous aider|ravie de vous aider)",
    ],
    closing: [
      "(puis-je|est-ce que je peux) vous aider (pour|avec|sur) autre chose( aujourd'hui|)",
      "y a-t-il autre chose que je (peux|puisse) faire pour vous",
      "n'hésitez pas( à me contacter| à revenir vers moi| si vous avez d'autres questions|)",
      "(je vous souhaite |)(une |)(bonne|belle|excellente) (journée|soirée|fin de journée)",
      "(cordialement|bien cordialement|à bientôt|au revoir)",
      "j'espère que cela (vous aide|aide)",
      "(avec plaisir|je vous en prie|je reste à votre disposition)",
    ],
    afterChange: ["(inutile|pas besoin) de (redemander|me le redemander)", "vous n'avez pas besoin de (redemander|me le redemander)"],
  },
  es: {
    opening: [
      "(hola|buenos días|buenas tardes|buenas noches)",
      "(gracias|muchas gracias|mil gracias)( por (su|tu) (paciencia|mensaje|comprensión)| por esperar|)",
      "(lo siento|lo sentimos|lamento|lamentamos)( mucho|)( las molestias|)",
      "(disculpe|disculpa|disculpas)( las molestias| por las molestias|)",
      "(entiendo|comprendo)( perfectamente| completamente|)( (su|tu) (preocupación|frustración)|)",
      "(no se preocupe|no te preocupes)",
      "(con gusto le ayudo|con gusto te ayudo|estoy aquí para ayudar(le|te|))",
    ],
    closing: [
      "(puedo|podemos) (ayudarle|ayudarte) (en|con) algo más",
      "hay algo más en (lo|que) (pueda|podamos) (ayudarle|ayudarte)",
      "(no dude|no dudes) en (escribirnos|contactarnos|preguntar)",
      "(que tenga|que tengas) un (buen|excelente) día",
      "(saludos|un saludo|atentamente|hasta pronto|adiós)",
      "espero que (esto|esto le|esto te) (ayude|sirva)",
      "(de nada|con gusto|ha sido un placer)",
    ],
    afterChange: ["no hace falta que (vuelva|vuelvas) a (preguntar|escribir)"],
  },
  it: {
    opening: [
      "(ciao|buongiorno|buonasera|salve)",
      "(grazie|grazie mille|molte grazie)( per (la sua|la tua) (pazienza|attesa|comprensione)| per il (suo|tuo) messaggio|)",
      "(mi dispiace|ci dispiace|mi scuso|ci scusiamo)( molto| davvero| tanto|)( per il disagio| per l'inconveniente|)",
      "(capisco|comprendo)( perfettamente| benissimo|)( la (sua|tua) (preoccupazione|frustrazione)|)",
      "(non si preoccupi|non ti preoccupare)",
      "sono (qui per aiutarla|qui per aiutarti|felice di aiutarla|felice di aiutarti)",
    ],
    closing: [
      "(posso|possiamo) (aiutarla|aiutarti) in (qualcos'altro|altro)",
      "c'è (qualcos'altro|altro) in cui (posso|possiamo) (aiutarla|aiutarti)",
      "(non esiti|non esitare) a (contattarci|scriverci|chiedere)",
      "(buona giornata|buona serata|buon fine settimana)",
      "(cordiali saluti|saluti|a presto|arrivederci)",
      "spero (che questo (la|ti) aiuti|di esserle stato utile|di esserle stata utile)",
      "(prego|di niente|con piacere)",
    ],
    afterChange: ["non (serve|c'è bisogno di) chiedere di nuovo"],
  },
  pt: {
    opening: [
      "(olá|bom dia|boa tarde|boa noite)",
      "(obrigado|obrigada|muito obrigado|muito obrigada)( pela (sua|tua) (paciência|mensagem|compreensão)| por aguardar| por esperar|)",
      "(lamento|lamentamos|peço desculpa|pedimos desculpa|desculpe)( muito|)( o incómodo| pelo incómodo| pelo inconveniente|)",
      "(compreendo|entendo)( perfeitamente| completamente|)( a sua (preocupação|frustração)|)",
      "(não se preocupe|não te preocupes)",
      "(estou|estamos) aqui para ajudar",
    ],
    closing: [
      "(posso|podemos) ajudar (em|com) mais alguma coisa",
      "há mais alguma coisa em que (possa|possamos) ajudar",
      "não hesite em (contactar-nos|perguntar)",
      "(tenha|tem) um (bom|ótimo|excelente) dia",
      "(cumprimentos|atenciosamente|até breve|adeus)",
      "espero que (isto|isso) ajude",
      "(de nada|com todo o gosto|foi um prazer)",
    ],
    afterChange: ["não (precisa|é preciso) (de |)pedir novamente"],
  },
  nl: {
    opening: [
      "(hallo|hoi|goedemorgen|goedemiddag|goedenavond)",
      "(bedankt|dank je|dank u|dank je wel|dank u wel|hartelijk dank)( voor (uw|je) (geduld|bericht|begrip)| voor het wachten|)",
      "(het spijt me|sorry|excuses|mijn excuses|onze excuses)( voor het ongemak|)",
      "(ik begrijp|ik snap)( het| dat| uw zorg| je zorg| uw frustratie| je frustratie|)",
      "(geen zorgen|maak je geen zorgen|maakt u zich geen zorgen)",
      "ik help (u|je) graag",
    ],
    closing: [
      "kan ik (u|je) (nog ergens anders|ergens anders|nog ergens) mee helpen",
      "is er nog iets (anders |)waarmee ik (u|je) kan helpen",
      "(laat het (me|ons) gerust weten|neem gerust contact (met ons |)op)",
      "(nog een |een |)(fijne|prettige|goede) (dag|avond)( nog|)",
      "(met vriendelijke groet|vriendelijke groeten|groeten|tot ziens)",
      "ik hoop dat dit (helpt|u helpt|je helpt)",
      "graag gedaan",
    ],
    afterChange: ["(u hoeft|je hoeft) het niet opnieuw te vragen"],
  },
  pl: {
    opening: [
      "(dzień dobry|cześć|witam|dobry wieczór)",
      "(dziękuję|dzięki|bardzo dziękuję|dziękujemy)( za (cierpliwość|wiadomość|zrozumienie|kontakt)| za czekanie|)",
      "(przepraszam|przepraszamy|bardzo przepraszam|bardzo przepraszamy)( za (kłopot|niedogodności|zamieszanie)|)",
      "(przykro mi|bardzo mi przykro)",
      "(rozumiem|doskonale rozumiem|w pełni rozumiem)( (pana|pani) (niepokój|frustrację)|)",
      "(proszę się nie martwić|nie ma się czym martwić)",
      "(chętnie pomogę|z przyjemnością pomogę)",
    ],
    closing: [
      "czy (mogę|możemy) (jeszcze |)(w czymś|jakoś) pomóc",
      "czy (mogę|możemy) pomóc w czymś jeszcze",
      "(w razie pytań |)(proszę śmiało pisać|zapraszam do kontaktu)",
      "(miłego|dobrego) dnia",
      "(pozdrawiam|z poważaniem|do widzenia|do zobaczenia)",
      "mam nadzieję",
      "(że to pomoże|mam nadzieję że to pomoże)",
      "(nie ma za co|proszę bardzo)",
    ],
    afterChange: ["nie (trzeba|musi (pan|pani)) pytać ponownie"],
  },
};

/** `(a|b|)` choices, nested, expanded into every phrase they make. */
function expand(template: string): string[] {
  const open = template.indexOf("(");
  if (open < 0) return [template.replace(/ +/g, " ").trim()];
  let depth = 0;
  let close = open;
  const cuts: number[] = [];
  for (let i = open; i < template.length; i++) {
    const c = template[i];
    if (c === "(") depth += 1;
    else if (c === ")") {
      depth -= 1;
      if (depth === 0) {
        close = i;
        break;
      }
    } else if (c === "|" && depth === 1) cuts.push(i);
  }
  const inner = template.slice(open + 1, close);
  const choices: string[] = [];
  let from = 0;
  for (const cut of cuts) {
    choices.push(inner.slice(from, cut - open - 1));
    from = cut - open;
  }
  choices.push(inner.slice(from));
  const before = template.slice(0, open);
  const after = template.slice(close + 1);
  return choices.flatMap((choice) => expand(`${before}${choice}${after}`));
}

const phrases = (list: readonly string[]) => new Set(list.flatMap(expand));
const phrasesByLocale = new Map<Locale, { opening: Set<string>; closing: Set<string>; afterChange: Set<string> }>();
function phrasesOf(locale: Locale) {
  let own = phrasesByLocale.get(locale);
  if (!own) {
    const t = templates[locale];
    own = { opening: phrases(t.opening), closing: phrases(t.closing), afterChange: phrases(t.afterChange) };
    phrasesByLocale.set(locale, own);
  }
  return own;
}

/** Every phrase of a locale's courtesy, by kind (for the check that none claims anything). */
export function courtesyPhrases(locale: Locale): { opening: string[]; closing: string[]; afterChange: string[] } {
  const own = phrasesOf(locale);
  return { opening: [...own.opening], closing: [...own.closing], afterChange: [...own.afterChange] };
}

const trailingCourtesyEmoji = new RegExp(`(?:\\s*(?:${courtesyEmoji.source}))+$`, "u");

export type Courtesy = "opening" | "closing";

/**
 * Whether a sentence (as shown: rendered, invisible characters removed) is courtesy in the principal's language,
 * and which kind: every part of it between commas is one of the phrases, and nothing else is in it but an opening
 * or closing mark and courtesy emoji. "There's no need to ask again" counts only when the turn sent a change that
 * completed or is being settled (`changeSent`).
 */
export function courtesyOf(sentence: string, locale: Locale = "en", changeSent = false): Courtesy | undefined {
  const bare = sentence.normalize("NFC").replace(/^- /, "").trim();
  const plain = bare
    .toLowerCase()
    .replace(/[’‘ʼ]/g, "'")
    .replace(trailingCourtesyEmoji, "")
    .replace(/\s*[.!?…]+$/u, "")
    .replace(/[¡¿]/gu, "")
    .trim();
  // A smile on its own, after the sentence it closes.
  if (plain === "") return bare !== "" && trailingCourtesyEmoji.test(bare) ? "closing" : undefined;
  if (/[^\p{L}', -]/u.test(plain)) return undefined;
  const own = phrasesOf(locale);
  let kind: Courtesy = "opening";
  for (const part of plain.split(",")) {
    const phrase = part.trim().replace(/ +/g, " ");
    if (own.closing.has(phrase)) kind = "closing";
    else if (changeSent && own.afterChange.has(phrase)) kind = "closing";
    else if (!own.opening.has(phrase)) return undefined;
  }
  return kind;
}

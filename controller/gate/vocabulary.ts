import type { ChangeToolName } from "#contract/tools";
import { type ActionTopic, changeTools } from "#controller/change-tools";
/**
 * The claim check's English. A closed vocabulary: a word that is in none of these lists is a word the check
 * cannot read, and a sentence holding one is not shown. That is what makes the check fail closed — a synonym
 * nobody listed ("scrapped", "nixed"), a word of another language or a disguised one ("canc3lled") is refused
 * because it is unknown, not accepted because it is not on a list of bad words.
 *
 * Two kinds of entry:
 * - `neutral`: words that say nothing about what happened to an order (function words, courtesy, the nouns of
 *   orders and parcels). No word with the sense of a change, a completion or money may be put here.
 * - `topics`: the words and phrases of each thing a reply can claim — an action on an order, its state, money,
 *   a refusal, doubt. The checker reads each mention of a topic in its context and decides whether the recorded
 *   outcome supports it.
 */

/** What a mention is about. Action topics name the tool whose outcome decides them. */
export type Topic =
  | ActionTopic
  | "completion"
  | "refund"
  | "charge"
  | "shipping"
  | "delivery"
  | "hold"
  | "stock"
  | "suspension"
  | "window"
  | "unchanged"
  | "refusal"
  | "doubt"
  | "version";

const words = (text: string): string[] => text.trim().split(/\s+/);

/**
 * Words and phrases per topic, lowercase, as the normalised text has them. Phrases are matched before single
 * words, longest first.
 */
export const topics: Record<Topic, readonly string[]> = {
  cancel: words(`cancel cancels cancelled canceled cancelling canceling cancellation cancellations cancelation uncancel
    call_off called_off calling_off scrap scrapped void voided nix nixed abort aborted annul annulled rescind rescinded
    revoke revoked terminate terminated withdraw withdrawn withdrew kill killed drop dropped axe axed`),
  note: words(`note notes noted instruction instructions instructed delivery_note delivery_notes message_for_the_driver
    driver_note courier_note`),
  return: words(`return returns returned returning send_back sent_back send_it_back sending_back take_back taken_back
    pickup pick-up pickups pick_up picked_up picking_up collect collects collected collecting collection collections
    label labels`),
  replacement: words(`replace replaces replaced replacing replacement replacements exchange exchanged exchanging swap
    swapped new_one another_one resend resent`),
  completion: words(`done complete completed completing completion finish finished process processed processing_it handled
    handle sorted sort_out sorted_out fixed fix resolved resolve success successful successfully succeeded confirm confirmed
    confirmation approve approved accept accepted arranged arrange arranging booked book booking scheduled schedule
    reserved reserve reserving reservation saved save saving added add adding updated update updating stored store recorded
    record logged log submitted submit created create made make making applied apply amended amend modified modify edited
    edit removed remove deleted delete undone undo reversed reverse changed change changes changing set set_up all_set
    good_to_go taken_care_of take_care_of taking_care_of went_through gone_through go_through going_through
    put_through gone go_ahead gone_ahead went_ahead started start starting begun began begin open opened
    raised raise filed lodged issued granted grant on_it in_place sent_off`),
  refund: words(`refund refunds refunded refunding reimburse reimbursed reimbursement money_back credit credited credits
    compensation compensate compensated voucher vouchers free free_of_charge no_charge at_no_cost waive waived discount
    discounted goodwill`),
  charge: words(`money charge charges charged charging fee fees cost costs price prices pay paid paying payment payments bill
    billed billing invoice invoiced cheaper expensive amount amounts total totals cash penny pence pound pounds euro euros
    dollar dollars cents cent gbp eur usd`),
  shipping: words(`ship ships shipped shipping shipment dispatch dispatched dispatching on_its_way on_their_way in_transit
    out_for_delivery en_route send sends sent sending post posted mail mailed carrier_has left_the_warehouse`),
  delivery: words(`deliver delivers delivered delivering delivery deliveries arrive arrives arrived arriving arrival
    reached received receive reach come comes came coming`),
  hold: words(`hold held holding on_hold pause paused pausing stop stopped stopping halt halted freeze froze frozen block
    blocked blocking prevent prevented`),
  stock: words(`stock in_stock out_of_stock available availability unavailable sold_out`),
  suspension: words(`suspended suspend suspension`),
  window: words(`closed expired ended elapsed passed lapsed window windows deadline returnable`),
  unchanged: words(`unchanged as_it_was as_they_were as_it_is stays stay remains remain still_active active still_open
    intact untouched same_as_before`),
  refusal: words(`rejected reject refused refuse declined decline denied deny failed fail failure unsuccessful
    ineligible not_eligible impossible not_possible not_allowed couldn't_find could_not_find didn't_go_through
    did_not_go_through`),
  doubt: words(`checking check_on looking_into unknown unclear unconfirmed not_confirmed not_sure not_yet_confirmed
    can't_confirm cannot_confirm can_not_confirm couldn't_confirm could_not_confirm unable_to_confirm don't_know
    do_not_know don't_yet_know waiting_for_confirmation waiting_to_hear haven't_heard have_not_heard no_answer
    as_soon_as_i_know as_soon_as_i_hear in_progress pending taken_effect take_effect has_gone_through`),
  version: words(`changed_while changed_since changed_in_the_meantime changed_meanwhile was_changed has_changed`),
};

/** Which tool an action topic is about; the other topics are facts or money, judged on their own. */
export const topicTool: Partial<Record<Topic, ChangeToolName>> = Object.fromEntries(
  Object.entries(changeTools).map(([tool, { topic }]) => [topic, tool]),
) as Partial<Record<Topic, ChangeToolName>>;

/** Words that turn the mention right after them into a denial. */
export const negators = new Set(
  words(`not no never none nothing nobody nor neither cannot can't won't wouldn't couldn't shouldn't didn't doesn't don't
    isn't aren't wasn't weren't hasn't haven't hadn't unable without no_longer not_yet too_late n't can_no_longer
    could_no_longer`),
);

/** Words that make what follows a possibility, not a claim. */
export const modals = new Set(words(`can could may might able_to are_able_to is_possible_to possible_to welcome_to free_to`));

/** Words that make what follows a question of whether, not a claim. */
export const conditionals = new Set(words(`whether if once when until after unless`));

/** How an offer opens: "Would you like me to …?" is a question, not a claim. */
export const offers = words(`would_you_like_me_to would_you_like do_you_want_me_to do_you_want want_me_to shall_i should_i
  can_i may_i could_i would_it_help_if_i i_can_also i_could`);

/**
 * Words that may stand between a mention and the word that governs it ("could not *be* cancelled", "whether
 * *it has been* cancelled", "can *still start a* return") without breaking the link.
 */
export const glue = new Set(
  words(`be been being is are was were am it its it's this that these those the your my our their a an order orders parcel
    item items yet still now already any longer more ever have has had get got gets actually fully properly also then just
    really i we you they he she for to of me us them go ahead request requested make start please try again both either
    all whole entire there here easily simply even able`),
);

/**
 * Irregular past and perfect forms, and the phrases of a settled state, among the topic words: with every word
 * ending in -ed, what states an outcome in any mood (a question, an offer, a conditional, a hedge).
 */
export const settled = new Set(
  words(`done gone sent made begun began went withdrawn withdrew taken held froze frozen paid resent came undone left
    all_set in_place good_to_go on_its_way on_their_way in_transit out_for_delivery en_route on_hold on_it success
    successful successfully confirmation completion`),
);

/**
 * Words that speak of every order of the turn at once ("both are cancelled", "so is SU-…", "the other one too"):
 * a sentence holding one is held against each order's own outcome.
 */
export const quantifiers = words(`both all neither each every either too as_well so_is so_was so_are so_were so_has so_have
  so_did the_other other_one others orders they them their they're same_goes likewise`).map((q) => q.split("_"));

/** Counts written as words, read as the numbers they are ("in five days"). */
export const numberWords: Readonly<Record<string, number>> = Object.fromEntries(
  words(`zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen
    eighteen nineteen twenty`)
    .map((w, i) => [w, i] as const)
    .concat([
      ["thirty", 30],
      ["forty", 40],
      ["fifty", 50],
      ["sixty", 60],
      ["ninety", 90],
    ]),
);

/** Words that put a mention in the past of an earlier change ("was already cancelled", "returned earlier"). */
export const earlier = new Set(words(`already earlier previously before before_this formerly`));

/**
 * Words that say nothing about what happened to an order. Checked against the topics below at load: none of
 * these may also be a topic word.
 */
export const neutral = new Set(
  words(`
    a an the and or but so if then than that this these those there here it its it's itself this's that's there's here's
    what what's which who whom whose when where why how whatever whenever wherever however
    i me my mine myself i'm i've i'll i'd you your yours yourself you're you've you'll you'd we us our ours we're we've
    we'll we'd they them their theirs they're they've they'll he him his she her hers one ones someone anyone everyone
    is are was were be been being am do does did doing have has had having will would shall should can could may might
    must let let's
    to of in on at by for with from about as into onto over under after before between during within without until till
    since up down out near per via than like unlike along across around against toward towards upon among beside besides
    all any some each every both either neither more most much many few little less least other others another same such
    own just only also too very really quite rather fairly pretty almost enough even ever again once twice
    now soon today tomorrow yesterday tonight later earlier recently currently usually always often sometimes
    yet already still
    yes yeah okay ok sure certainly absolutely of_course alright right
    please thanks thank thankyou welcome sorry apologies apologise apologize apologised regret afraid unfortunately glad
    news happy pleased delighted great good fine nice lovely wonderful perfect excellent hello hi hey dear morning afternoon
    evening day days week weeks month months year years hour hours minute minutes time times moment moments while
    help helps helped helping assist assistance support question questions answer answers information info detail details
    anything something everything nothing else further other additional extra
    know knows knew known tell tells told say says said ask asks asked explain explained mean means meant understand
    understood hope hoping think thought believe feel look looks looked looking see seen saw find found show shows shown
    read let need needs needed want wants wanted wish like likes liked love would_like prefer
    keep kept try tried trying use used using take took taken give gave given bring brought
    wait waiting call called contact contacted email emailed write wrote written reply replied
    hear heard check checked placed ordered processing
    order orders item items product products parcel parcels package packages box boxes purchase purchases
    account customer customers team colleague colleagues person people staff agent seller sellers shop
    carrier carriers courier couriers driver drivers warehouse address door doorstep porch neighbour neighbor
    reference number numbers id code tracking track status policy policies rule rules terms
    date dates days working business
    way ways option options choice choices step steps next last first second third fourth fifth
    one two three four five six seven eight nine ten eleven twelve fourteen fifteen twenty thirty ninety
    monday tuesday wednesday thursday friday saturday sunday
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec
    morning noon midday afternoon evening night am pm between
    lamp lamps light lights bulb bulbs kettle kettles towel towels mug mugs shelf shelves shelving unit units bench benches
    chair chairs table tables desk desks sofa cushion cushions rug rugs blanket blankets bracket brackets sets
    oak walnut pine steel cotton wool glass stoneware grey gray blue red green black white brown yellow pink large small
    medium wooden metal floor wall bath kitchen bedside electric cordless size colour color
    quick short brief long full whole part half
    question issue problem concern trouble mistake error
    able possible likely unlikely sure certain clear
    note_that
    thing things stuff
    patience understanding getting touch bear instead
    contain contains contained invisible visible character characters letter letters symbol symbols word words line lines
    space spaces text field fields system systems limit limits limited length longer shorter type typed gate
    bit lot lots
    me_know
    here there
    who
  `),
);

/** Function words a delivery note may gain or lose between the customer's message and the proposal. */
export const smallWords = new Set(words(`a an the to of at in on by for with and or please it is my me i be if`));

import { createTailwindMerge, validators } from 'tailwind-merge';

const {
  isAny,
  isAnyNonArbitrary,
  isArbitraryFamilyName,
  isArbitraryImage,
  isArbitraryLength,
  isArbitraryNumber,
  isArbitraryShadow,
  isArbitraryValue,
  isArbitraryVariable,
  isArbitraryVariableFamilyName,
  isArbitraryVariableImage,
  isArbitraryVariableLength,
  isArbitraryVariableShadow,
  isArbitraryVariableWeight,
  isArbitraryWeight,
  isFraction,
  isInteger,
  isNumber,
  isTshirtSize,
} = validators;

// Scales as in tailwind-merge's default config (Tailwind v4's theme namespaces inlined): numbers,
// colours and arbitrary values go by its validators; keywords only as the app uses them.
const color = () => [isAny, isArbitraryVariable, isArbitraryValue] as const;
const spacing = () => [isArbitraryVariable, isArbitraryValue, 'px', isNumber] as const;
const inset = () => [isFraction, 'full', 'auto', ...spacing()] as const;
const margin = () => ['auto', ...spacing()] as const;
const sizing = () => [isFraction, 'auto', 'full', 'dvh', ...spacing()] as const;
const borderWidth = () => ['', isNumber, isArbitraryVariableLength, isArbitraryLength] as const;
const translate = () => [isFraction, 'full', ...spacing()] as const;

/**
 * tailwind-merge over a config that holds only the class groups (kinds of utility) the app
 * uses, taken from tailwind-merge's default config in its order, each with only the keywords
 * the app uses: the full config lists every Tailwind utility and would not fit the home route's
 * JavaScript budget. cn.test.ts compares `cn` with the full config on every pair of classes in
 * web/src: when you use a new kind of utility or keyword, that test fails until you add its
 * group (with the conflicts it takes part in) or keyword here, as the default config has it.
 */
const merge = createTailwindMerge(() => ({
  cacheSize: 500,
  theme: {},
  classGroups: {
    container: ['container'],
    display: ['block', 'inline', 'flex', 'inline-flex', 'table', 'grid', 'contents', 'hidden'],
    sr: ['sr-only', 'not-sr-only'],
    overflow: [{ overflow: ['hidden', 'visible'] }],
    'overflow-y': [{ 'overflow-y': ['auto'] }],
    overscroll: [{ overscroll: ['contain'] }],
    position: ['static', 'fixed', 'absolute', 'relative', 'sticky'],
    inset: [{ inset: inset() }],
    'inset-x': [{ 'inset-x': inset() }],
    'inset-y': [{ 'inset-y': inset() }],
    top: [{ top: inset() }],
    right: [{ right: inset() }],
    bottom: [{ bottom: inset() }],
    left: [{ left: inset() }],
    visibility: ['visible', 'collapse'],
    z: [{ z: [isInteger, 'auto', isArbitraryVariable, isArbitraryValue] }],
    basis: [{ basis: [isFraction, 'full', 'auto', isTshirtSize, ...spacing()] }],
    'flex-direction': [{ flex: ['row', 'col', 'col-reverse'] }],
    'flex-wrap': [{ flex: ['wrap'] }],
    flex: [{ flex: [isNumber, isFraction, 'auto', 'none', isArbitraryValue] }],
    grow: [{ grow: ['', isNumber, isArbitraryVariable, isArbitraryValue] }],
    shrink: [{ shrink: ['', isNumber, isArbitraryVariable, isArbitraryValue] }],
    order: [{ order: [isInteger, isArbitraryVariable, isArbitraryValue] }],
    'grid-cols': [{ 'grid-cols': [isInteger, isArbitraryVariable, isArbitraryValue] }],
    gap: [{ gap: spacing() }],
    'gap-x': [{ 'gap-x': spacing() }],
    'gap-y': [{ 'gap-y': spacing() }],
    'justify-content': [{ justify: ['end', 'center', 'between'] }],
    'align-items': [{ items: ['start', 'end', 'center'] }],
    p: [{ p: spacing() }],
    px: [{ px: spacing() }],
    py: [{ py: spacing() }],
    pt: [{ pt: spacing() }],
    pr: [{ pr: spacing() }],
    pb: [{ pb: spacing() }],
    pl: [{ pl: spacing() }],
    m: [{ m: margin() }],
    mx: [{ mx: margin() }],
    my: [{ my: margin() }],
    mt: [{ mt: margin() }],
    mr: [{ mr: margin() }],
    mb: [{ mb: margin() }],
    ml: [{ ml: margin() }],
    'space-y': [{ 'space-y': spacing() }],
    size: [{ size: sizing() }],
    w: [{ w: [isTshirtSize, ...sizing()] }],
    'min-w': [{ 'min-w': [isTshirtSize, ...sizing()] }],
    'max-w': [{ 'max-w': ['none', isTshirtSize, ...sizing()] }],
    h: [{ h: sizing() }],
    'min-h': [{ 'min-h': sizing() }],
    'max-h': [{ 'max-h': ['none', ...sizing()] }],
    'font-size': [{ text: ['base', isTshirtSize, isArbitraryVariableLength, isArbitraryLength] }],
    'font-style': ['italic'],
    'font-weight': [{ font: ['medium', 'semibold', 'bold', isArbitraryVariableWeight, isArbitraryWeight] }],
    'font-family': [{ font: [isArbitraryVariableFamilyName, isArbitraryFamilyName, isAnyNonArbitrary] }],
    'fvn-spacing': ['tabular-nums'],
    tracking: [{ tracking: ['tight', 'wide', isArbitraryVariable, isArbitraryValue] }],
    'line-clamp': [{ 'line-clamp': [isNumber, 'none', isArbitraryVariable, isArbitraryNumber] }],
    leading: [{ leading: ['none', 'tight', 'snug', 'normal', 'relaxed', 'loose', ...spacing()] }],
    'list-style-position': [{ list: ['inside'] }],
    'list-style-type': [{ list: ['disc', isArbitraryVariable, isArbitraryValue] }],
    'text-alignment': [{ text: ['left', 'center', 'right'] }],
    'text-color': [{ text: color() }],
    'text-decoration': ['underline'],
    'underline-offset': [{ 'underline-offset': [isNumber, 'auto', isArbitraryVariable, isArbitraryValue] }],
    'text-transform': ['uppercase', 'capitalize'],
    'text-overflow': ['truncate'],
    'text-wrap': [{ text: ['balance', 'pretty'] }],
    'vertical-align': [{ align: ['middle'] }],
    whitespace: [{ whitespace: ['nowrap', 'pre-line', 'pre-wrap'] }],
    break: [{ break: ['words'] }],
    content: [{ content: ['none', isArbitraryVariable, isArbitraryValue] }],
    'bg-image': [{ bg: [{ linear: [{ to: ['r'] }, isInteger, isArbitraryVariable, isArbitraryValue] }, isArbitraryVariableImage, isArbitraryImage] }],
    'bg-color': [{ bg: color() }],
    'gradient-from': [{ from: color() }],
    'gradient-to': [{ to: color() }],
    rounded: [{ rounded: ['', 'none', 'full', isTshirtSize, isArbitraryVariable, isArbitraryValue] }],
    'border-w': [{ border: borderWidth() }],
    'border-w-t': [{ 'border-t': borderWidth() }],
    'border-w-b': [{ 'border-b': borderWidth() }],
    'divide-y': [{ 'divide-y': borderWidth() }],
    'border-style': [{ border: ['dashed'] }],
    'border-color': [{ border: color() }],
    'divide-color': [{ divide: color() }],
    'outline-style': [{ outline: ['none'] }],
    'outline-w': [{ outline: ['', isNumber, isArbitraryVariableLength, isArbitraryLength] }],
    'outline-color': [{ outline: color() }],
    shadow: [{ shadow: ['', 'none', isTshirtSize, isArbitraryVariableShadow, isArbitraryShadow] }],
    'ring-w': [{ ring: borderWidth() }],
    'ring-color': [{ ring: color() }],
    opacity: [{ opacity: [isNumber, isArbitraryVariable, isArbitraryValue] }],
    filter: [{ filter: ['', 'none', isArbitraryVariable, isArbitraryValue] }],
    'backdrop-blur': [{ 'backdrop-blur': ['', 'none', isTshirtSize, isArbitraryVariable, isArbitraryValue] }],
    transition: [{ transition: ['', 'colors', 'transform', 'none', isArbitraryVariable, isArbitraryValue] }],
    duration: [{ duration: [isNumber, isArbitraryVariable, isArbitraryValue] }],
    animate: [{ animate: ['none', 'spin', 'pulse', isArbitraryVariable, isArbitraryValue] }],
    rotate: [{ rotate: ['none', isNumber, isArbitraryVariable, isArbitraryValue] }],
    'translate-x': [{ 'translate-x': translate() }],
    'translate-y': [{ 'translate-y': translate() }],
    'translate-none': ['translate-none'],
    accent: [{ accent: color() }],
    cursor: [{ cursor: ['pointer', 'not-allowed', isArbitraryVariable, isArbitraryValue] }],
    'pointer-events': [{ 'pointer-events': ['none'] }],
    resize: [{ resize: ['y'] }],
    'scroll-mt': [{ 'scroll-mt': spacing() }],
    select: [{ select: ['none'] }],
  },
  conflictingClassGroups: {
    overflow: ['overflow-y'],
    inset: ['inset-x', 'inset-y', 'top', 'right', 'bottom', 'left'],
    'inset-x': ['right', 'left'],
    'inset-y': ['top', 'bottom'],
    flex: ['basis', 'grow', 'shrink'],
    gap: ['gap-x', 'gap-y'],
    p: ['px', 'py', 'pt', 'pr', 'pb', 'pl'],
    px: ['pr', 'pl'],
    py: ['pt', 'pb'],
    m: ['mx', 'my', 'mt', 'mr', 'mb', 'ml'],
    mx: ['mr', 'ml'],
    my: ['mt', 'mb'],
    size: ['w', 'h'],
    'font-size': ['leading'],
    'line-clamp': ['display', 'overflow'],
    'border-w': ['border-w-t', 'border-w-b'],
    'translate-none': ['translate-x', 'translate-y'],
  },
  conflictingClassGroupModifiers: {
    'font-size': ['leading'],
  },
  orderSensitiveModifiers: ['*', '**', 'after', 'backdrop', 'before', 'details-content', 'file', 'first-letter', 'first-line', 'marker', 'placeholder', 'selection'],
}));

/**
 * Joins class names, skipping empty ones, and merges them with tailwind-merge: of two classes
 * for the same property (`px-2` then `px-4`, `text-fg` then `text-fg-muted`, `p-4` then `px-2`
 * for the x axis) the later one wins, per variant (`hover:`, `dark:`, `sm:`). So a caller's
 * `className` overrides a component's own classes. (A `text-*` size sets a line height too: a
 * `leading-*` goes after it.)
 */
export function cn(...classes: Array<string | false | null | undefined>): string {
  return merge(classes.filter(Boolean).join(' '));
}

import type { CompanySizeBand, SignalCategory, SignalPolarity } from '../../src/domain/enums.js';
import type { Random } from '../random.js';

/** News items that predict hiring, written the way trade press reports them. */

export interface SignalContext {
  company: string;
  sizeBand: CompanySizeBand;
  industry: string;
  /** A city in the signal's country, for news that names a place. */
  city: string;
  countryName: string;
  countryCode: string;
  /** "£" in the UK, "€" elsewhere in Europe. */
  currencySymbol: string;
  /** The company's approximate head count. */
  headcount: number;
}

export interface SignalText {
  polarity: SignalPolarity;
  title: string;
  summary: string;
}

export const CATEGORY_SHARES: ReadonlyArray<readonly [SignalCategory, number]> = [
  ['funding', 20],
  ['new_location', 14],
  ['c_level_change', 14],
  ['technology_change', 12],
  ['acquisition', 10],
  ['layoff', 10],
  ['grant', 8],
  ['investor_fund', 6],
  ['outsourcing', 6],
];

const INVESTORS = [
  'Alder Ventures',
  'Kestrel Capital',
  'Northlight Partners',
  'Bramble Growth',
  'Lumen Ventures',
  'Harbourside Capital',
  'Danube Ventures',
  'Vistula Capital',
  'Carpathia Partners',
  'Balkan Growth Fund',
  'Alpine Equity',
  'Rhine Ventures',
  'Thames Growth Partners',
  'Liffey Capital',
];

const GRANT_BODIES: Readonly<Record<string, readonly string[]>> = {
  GB: ['Innovate UK', 'UK Research and Innovation'],
  IE: ['Enterprise Ireland', 'Science Foundation Ireland'],
  DE: ['the Federal Ministry for Economic Affairs', 'the EXIST programme'],
  AT: ['the Austrian Research Promotion Agency (FFG)', 'aws'],
  CH: ['Innosuisse'],
  PL: ['the National Centre for Research and Development (NCBR)', 'PARP'],
  RO: ['the Recovery and Resilience Facility', 'the Romanian Innovation Agency'],
  BG: ['the Bulgarian Fund of Innovation', 'the Recovery and Resilience Facility'],
};

const FIRST_NAMES = [
  'Anna',
  'James',
  'Sophie',
  'Thomas',
  'Katarzyna',
  'Piotr',
  'Andreea',
  'Mihai',
  'Elena',
  'Georgi',
  'Lukas',
  'Julia',
  'Niamh',
  'Conor',
  'Markus',
  'Laura',
  'Daniel',
  'Maria',
  'Stefan',
  'Claire',
];

const LAST_NAMES = [
  'Walsh',
  'Novak',
  'Müller',
  'Kowalski',
  'Popescu',
  'Ivanova',
  'Hughes',
  'Schneider',
  'Wiśniewska',
  'Ionescu',
  'Dimitrov',
  'Gruber',
  'Keller',
  'Byrne',
  'Fischer',
  'Zielińska',
  'Petrov',
  'Murphy',
  'Bauer',
  'Stan',
];

const C_LEVEL_ROLES = [
  'Chief Technology Officer',
  'Chief Executive Officer',
  'Chief Product Officer',
  'Chief Data Officer',
  'Chief Information Officer',
  'VP of Engineering',
  'Chief Operating Officer',
];

const TECHNOLOGIES = [
  'Kubernetes',
  'Google Cloud',
  'AWS',
  'Microsoft Azure',
  'Snowflake',
  'Databricks',
  'Rust',
  'a microservices architecture',
  'Salesforce',
  'SAP S/4HANA',
  'generative AI tooling',
  'an event-driven platform built on Kafka',
];

const OUTSOURCED_FUNCTIONS = [
  'IT support',
  'software testing',
  'application maintenance',
  'cloud operations',
  'data engineering',
];

const OUTSOURCING_PARTNERS = [
  'Nearshore Partners',
  'Delivery Hub',
  'CodeBridge Services',
  'Eastway Consulting',
  'BlueShift Delivery',
];

/** The country as it reads inside a sentence: "in the UK", "its UK operations". */
function countryInText(context: SignalContext): string {
  return context.countryCode === 'GB' ? 'the UK' : context.countryName;
}

function person(random: Random): string {
  return `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
}

/** "€12m", "£850k". */
function amount(random: Random, symbol: string, minMillions: number, maxMillions: number): string {
  const millions = random.between(minMillions, maxMillions);
  if (millions < 1) return `${symbol}${Math.round(millions * 20) * 50}k`;
  if (millions < 20) return `${symbol}${Math.round(millions * 2) / 2}m`;
  return `${symbol}${Math.round(millions / 5) * 5}m`;
}

const ROUNDS_BY_BAND: Readonly<Record<CompanySizeBand, readonly [string, number, number]>> = {
  startup: ['Seed round', 0.5, 4],
  scale_up: ['Series B', 15, 60],
  small: ['Series A', 4, 15],
  medium: ['growth round', 25, 120],
  enterprise: ['funding round', 80, 400],
};

type Writer = (context: SignalContext, random: Random) => SignalText;

const WRITERS: Readonly<Record<SignalCategory, Writer>> = {
  funding: (c, random) => {
    const [round, low, high] = ROUNDS_BY_BAND[c.sizeBand];
    const raised = amount(random, c.currencySymbol, low, high);
    const investor = random.pick(INVESTORS);
    return {
      polarity: 'positive',
      title: `${c.company} raises ${raised} ${round} led by ${investor}`,
      summary: `${c.company}, the ${c.industry.toLowerCase()} company, has raised ${raised} in a ${round} led by ${investor}. The money will go into product development and hiring, with the engineering team expected to grow over the next year.`,
    };
  },
  grant: (c, random) => {
    const body = random.pick(GRANT_BODIES[c.countryCode] ?? ['Horizon Europe']);
    const granted = amount(random, c.currencySymbol, 0.2, 3);
    return {
      polarity: 'positive',
      title: `${c.company} awarded ${granted} grant by ${body}`,
      summary: `${body} has awarded ${c.company} ${granted} to fund a research and development project in ${countryInText(c)}. The company plans to add specialists to its R&D team for the project.`,
    };
  },
  investor_fund: (c, random) => {
    const investor = random.pick(INVESTORS);
    return {
      polarity: 'positive',
      title: `${investor} takes a stake in ${c.company}`,
      summary: `${investor} has invested in ${c.company} from its new fund, joining the board. The investor backs the company's expansion plans in ${countryInText(c)} and beyond.`,
    };
  },
  new_location: (c, random) => {
    const hires = random.int(2, 12) * 10;
    const site = random.pick(['office', 'engineering hub', 'technology centre', 'regional headquarters']);
    return {
      polarity: 'positive',
      title: `${c.company} opens new ${site} in ${c.city}`,
      summary: `${c.company} is opening a new ${site} in ${c.city}, ${c.countryName}, and plans to hire around ${hires} people there over the next 12 months, many of them in engineering.`,
    };
  },
  acquisition: (c, random) => {
    const acquires = random.chance(0.6);
    const other = `${random.pick(['Nordic', 'Vista', 'Atlas', 'Meridian', 'Quanta', 'Helix'])} ${random.pick(['Software', 'Data', 'Systems', 'Group', 'Labs'])}`;
    return acquires
      ? {
          polarity: 'positive',
          title: `${c.company} acquires ${other}`,
          summary: `${c.company} has agreed to buy ${other} for an undisclosed sum. The deal brings the acquired team into ${c.company}'s operations in ${countryInText(c)}.`,
        }
      : {
          polarity: 'neutral',
          title: `${other} to acquire ${c.company}`,
          summary: `${other} has agreed to acquire ${c.company}. The companies say the team in ${countryInText(c)} will stay in place while the businesses are combined.`,
        };
  },
  c_level_change: (c, random) => {
    const role = random.pick(C_LEVEL_ROLES);
    const name = person(random);
    return random.chance(0.7)
      ? {
          polarity: 'neutral',
          title: `${c.company} appoints ${name} as ${role}`,
          summary: `${c.company} has appointed ${name} as ${role}. New leaders often reshape their teams in their first months, which brings hiring with it.`,
        }
      : {
          polarity: 'negative',
          title: `${c.company} ${role} ${name} steps down`,
          summary: `${name} is leaving the role of ${role} at ${c.company}. The company has started a search for a successor.`,
        };
  },
  layoff: (c, random) => {
    const percent = random.int(5, 20);
    const affected = Math.max(5, Math.round((c.headcount * percent) / 100));
    return {
      polarity: 'negative',
      title: `${c.company} to cut ${affected} jobs in restructuring`,
      summary: `${c.company} plans to cut about ${percent}% of its workforce, around ${affected} roles, as it restructures its operations in ${countryInText(c)} to reduce costs.`,
    };
  },
  technology_change: (c, random) => {
    const technology = random.pick(TECHNOLOGIES);
    return {
      polarity: random.chance(0.6) ? 'neutral' : 'positive',
      title: `${c.company} moves its platform to ${technology}`,
      summary: `${c.company} has started moving its core systems to ${technology}. The programme is expected to run for over a year and needs people who know the new stack.`,
    };
  },
  outsourcing: (c, random) => {
    const work = random.pick(OUTSOURCED_FUNCTIONS);
    const partner = random.pick(OUTSOURCING_PARTNERS);
    return random.chance(0.6)
      ? {
          polarity: 'negative',
          title: `${c.company} outsources ${work} to ${partner}`,
          summary: `${c.company} is handing ${work} to ${partner}. Roles in the in-house team are expected to move to the supplier.`,
        }
      : {
          polarity: 'neutral',
          title: `${c.company} opens nearshore ${work} centre with ${partner} in ${c.city}`,
          summary: `${c.company} and ${partner} are setting up a ${work} team in ${c.city}, ${c.countryName}, to support the company's growth.`,
        };
  },
};

export function writeSignal(category: SignalCategory, context: SignalContext, random: Random): SignalText {
  return WRITERS[category](context, random);
}

/** Invented trade publications: every article the seed cites is invented too. */
export const NEWS_OUTLETS: Readonly<Record<string, readonly string[]>> = {
  GB: ['https://www.uktechwire.example', 'https://www.thestartupledger.example'],
  IE: ['https://www.irishtechdaily.example'],
  DE: ['https://www.dach-startups.example', 'https://www.berlintechpost.example'],
  AT: ['https://www.dach-startups.example', 'https://www.wientech.example'],
  CH: ['https://www.swisstechbrief.example', 'https://www.dach-startups.example'],
  PL: ['https://www.cee-techreport.example', 'https://www.polandtechtimes.example'],
  RO: ['https://www.cee-techreport.example', 'https://www.romaniatechwatch.example'],
  BG: ['https://www.cee-techreport.example', 'https://www.sofiatechnews.example'],
};

import type { EmploymentType, WorkType } from '../../src/domain/enums.js';

/**
 * The relevance suite's judged queries (docs/search-quality.md): what people type into
 * `search_leads`, each with what a person means by it, written without looking at how the
 * search reads it: a pattern over the role's display title, the canonical skill names, or the
 * industry names of the data. A lead is relevant when it is open, not posted by an agency (the
 * defaults of search_leads), and meets every part of `means`.
 */

type QueryKind =
  | 'literal'
  | 'plural'
  | 'abbreviation'
  | 'synonym'
  | 'spelling'
  | 'word order'
  | 'trap'
  | 'typo'
  | 'skill alias'
  | 'industry'
  | 'job board';

export interface JudgedQuery {
  kind: QueryKind;
  args: { title?: string; skills?: string[]; industry?: string };
  means: {
    /** Case-insensitive regular expression over the display title. */
    title?: RegExp;
    /** The role needs any of these skills (names as the data spells them). */
    skills?: readonly string[];
    /** The role's industry is one of these. */
    industries?: readonly string[];
    /** The role is in one of these cities (names as the data spells them). */
    cities?: readonly string[];
    workType?: WorkType;
    employmentType?: EmploymentType;
    /** Nothing in the index is what the person means: any match is a wrong one. */
    nothing?: true;
  };
}

const title = (kind: QueryKind, typed: string, pattern: RegExp): JudgedQuery => ({
  kind,
  args: { title: typed },
  means: { title: pattern },
});
/** A title that also names where the role is: what it means is a title and a place or arrangement. */
const titleAt = (kind: QueryKind, typed: string, means: JudgedQuery['means']): JudgedQuery => ({
  kind,
  args: { title: typed },
  means,
});
const skills = (kind: QueryKind, typed: string[], canonical: string[]): JudgedQuery => ({
  kind,
  args: { skills: typed },
  means: { skills: canonical },
});
const industry = (kind: QueryKind, typed: string, canonical: string[]): JudgedQuery => ({
  kind,
  args: { industry: typed },
  means: { industries: canonical },
});

/** A specialty followed by either role noun: "Frontend Engineer" and "Frontend Developer" are one job. */
const role = (specialty: string) => new RegExp(`${specialty} (Engineer|Developer)\\b`, 'i');

/** The seven queries of the issue that asked for this suite: each must find what a person means. */
export const ISSUE_TABLE: readonly JudgedQuery[] = [
  title('plural', 'engineers', /\bEngineer\b/i),
  title('abbreviation', 'ML engineer', /\b(Machine Learning|MLOps) Engineer\b/i),
  title('spelling', 'front end engineer', role('Frontend')),
  title('typo', 'enginer', /\bEngineer\b/i),
  title('abbreviation', 'CTO', /Chief Technology Officer/i),
  skills('skill alias', ['k8s'], ['Kubernetes']),
  skills('skill alias', ['postgres'], ['PostgreSQL']),
];

export const JUDGED_QUERIES: readonly JudgedQuery[] = [
  ...ISSUE_TABLE,

  // Plurals and other light inflections.
  title('plural', 'developers', /\bDeveloper\b/i),
  title('plural', 'data scientists', /Data Scientist/i),
  title('plural', 'data analysts', /Data Analyst/i),
  title('plural', 'product managers', /Product Manager/i),
  title('plural', 'designers', /Designer\b/i),
  title('plural', 'architects', /Architect\b/i),
  title('plural', 'consultants', /Consultant\b/i),
  title('plural', 'analysts', /Analyst\b/i),
  // Anyone who tests software: QA and test engineers as well as penetration testers (until
  // the sixth round of docs/search-quality.md this was judged as titles with "Tester" only).
  title('plural', 'testers', /\b(Tester|QA|Test|SDET)\b/i),
  title('plural', 'UX researchers', /UX Researcher/i),
  title('plural', 'solutions architects', /Solutions Architect/i),
  title('plural', 'solution architect', /Solutions Architect/i),
  title('plural', 'penetration testers', /Penetration Tester/i),
  title('plural', 'product owners', /Product Owner/i),
  title('plural', 'engineering managers', /Engineering Manager/i),
  title('plural', 'delivery managers', /Delivery Manager/i),
  title('plural', 'network engineers', /Network Engineer/i),
  title('plural', 'cloud engineers', role('Cloud')),
  title('plural', 'platform engineers', role('Platform')),
  title('plural', 'security engineers', role('Security')),
  // Changed in the second round (docs/search-quality.md): iOS, Android and Flutter developers are
  // mobile engineers; the first round counted "Mobile Engineer" titles only.
  title('plural', 'mobile engineers', /\b(Mobile|iOS|Android|Flutter) (Engineer|Developer)\b/i),
  title('plural', 'data engineers', /\bData\b.*\b(Engineer|Developer)\b/i),
  title('plural', 'software engineers', role('Software')),
  title('plural', 'java developers', role('\\bJava')),
  title('plural', 'python developers', role('Python')),
  title('plural', 'iOS developers', role('iOS')),
  title('plural', 'android developers', role('Android')),
  title('plural', 'chief technology officers', /Chief Technology Officer/i),
  title('plural', 'heads of engineering', /Head of .*Engineering/i),
  title('plural', 'directors of engineering', /Director of .*Engineering/i),
  title('plural', 'business intelligence analysts', /Business Intelligence Analyst/i),
  title('plural', 'interns', /\bIntern\b/i),
  title('plural', 'machine learning engineers', /Machine Learning Engineer/i),
  title('plural', 'SOC analysts', /SOC Analyst/i),
  title('plural', 'site reliability engineers', /Site Reliability Engineer/i),
  title('plural', 'firmware engineers', /Firmware Engineer/i),

  // Abbreviations and synonyms.
  title('abbreviation', 'ML', /Machine Learning|MLOps/i),
  title('abbreviation', 'AI engineer', /\bAI Engineer/i),
  title('abbreviation', 'AI', /\bAI\b|Artificial Intelligence/i),
  title('abbreviation', 'SRE', /Site Reliability Engineer/i),
  title('abbreviation', 'SRE engineer', /Site Reliability Engineer/i),
  title('abbreviation', 'SWE', role('Software')),
  title('abbreviation', 'senior SWE', /^Senior .*Software (Engineer|Developer)/i),
  title('abbreviation', 'SDET', /\bSDET\b/i),
  title('abbreviation', 'QA engineer', /\b(QA|Quality Assurance) (Engineer|Developer)\b/i),
  title('abbreviation', 'QA', /\bQA\b|Quality Assurance/i),
  title('synonym', 'quality assurance', /\bQA\b|Quality Assurance/i),
  title('abbreviation', 'UX designer', /UX Designer/i),
  title('abbreviation', 'UI/UX designer', /\b(UX|UI) Designer/i),
  title('abbreviation', 'UX/UI', /\b(UX|UI)\b/i),
  title('synonym', 'user experience designer', /UX Designer/i),
  title('abbreviation', 'BI developer', /\b(BI|Business Intelligence) (Developer|Engineer)\b/i),
  title('abbreviation', 'BI analyst', /Business Intelligence Analyst|\bBI Analyst/i),
  title('abbreviation', 'NLP engineer', /NLP Engineer|Natural Language Processing Engineer/i),
  title('abbreviation', 'CIO', /Chief Information Officer/i),
  title('abbreviation', 'CISO', /Chief Information Security Officer/i),
  title('abbreviation', 'CPO', /Chief Product Officer/i),
  title('abbreviation', 'CDO', /Chief Data Officer/i),
  title('abbreviation', 'VP engineering', /VP of Engineering/i),
  title('synonym', 'vice president of product', /VP of Product/i),
  title('abbreviation', 'DBA', /Database Administrator|\bDBA\b/i),
  title('abbreviation', 'sysadmin', /Systems? Administrator/i),
  title('abbreviation', 'sys admin', /Systems? Administrator/i),
  title('plural', 'system administrator', /Systems? Administrator/i),
  title('abbreviation', 'pentester', /Penetration Tester/i),
  title('abbreviation', 'pen tester', /Penetration Tester/i),
  title('abbreviation', 'RoR developer', /Ruby on Rails Developer/i),
  title('abbreviation', 'rails developer', /Ruby on Rails Developer/i),
  title('abbreviation', 'PM', /Product Manager/i),
  title('abbreviation', 'TPM', /Technical (Program|Product) Manager/i),
  title('synonym', 'tech lead', /Technical Lead/i),
  title('abbreviation', 'dev', /\bDeveloper\b/i),
  title('abbreviation', 'frontend dev', role('Frontend')),
  title('abbreviation', 'python dev', role('Python')),
  title('abbreviation', 'php dev', role('PHP')),
  title('synonym', 'golang developer', role('\\bGo')),
  title('synonym', 'golang', /\bGo\b/i),
  title('synonym', 'dotnet developer', role('\\.NET')),
  title('synonym', '.net', /\.NET/i),
  title('synonym', 'C# developer', role('\\.NET')),
  title('synonym', 'csharp developer', role('\\.NET')),
  title('synonym', 'node developer', role('Node\\.js')),
  title('synonym', 'nodejs developer', role('Node\\.js')),
  title('synonym', 'node.js engineer', role('Node\\.js')),
  title('synonym', 'reactjs developer', role('React')),
  title('synonym', 'react.js developer', role('React')),
  title('synonym', 'vue developer', role('Vue\\.js')),
  title('synonym', 'vuejs', /Vue\.js/i),
  title('synonym', 'cpp developer', role('C\\+\\+')),
  title('synonym', 'appsec engineer', /Application Security Engineer/i),
  title('synonym', 'python engineer', role('Python')),
  title('synonym', 'java engineer', role('\\bJava')),
  title('synonym', 'react engineer', role('React')),
  title('synonym', 'backend developer', role('Backend')),
  title('synonym', 'software developer', role('Software')),
  title('synonym', 'kotlin engineer', role('Kotlin')),
  title('synonym', 'rust developer', role('Rust')),
  title('synonym', 'embedded developer', /Embedded .*(Engineer|Developer)/i),

  // Hyphens, spaces and joined words.
  title('spelling', 'front-end developer', role('Frontend')),
  title('spelling', 'frontend', /Frontend/i),
  title('spelling', 'full stack developer', /Full Stack .*(Developer|Engineer)/i),
  title('spelling', 'full-stack engineer', /Full Stack .*(Developer|Engineer)/i),
  title('spelling', 'fullstack', /Full Stack/i),
  title('spelling', 'back-end engineer', role('Backend')),
  title('spelling', 'back end developer', role('Backend')),
  title('spelling', 'backend', /Backend/i),
  title('spelling', 'dev ops engineer', /DevOps Engineer/i),
  title('spelling', 'dev-ops', /DevOps/i),
  title('spelling', 'devops', /DevOps/i),
  title('spelling', 'mlops engineer', /MLOps Engineer/i),
  title('spelling', 'ml-ops', /MLOps/i),
  title('spelling', 'cybersecurity analyst', /Cyber Security Analyst/i),
  title('spelling', 'cyber-security analyst', /Cyber Security Analyst/i),
  title('spelling', 'c++ developer', role('C\\+\\+')),
  title('spelling', 'Node.js', /Node\.js/i),

  // Word order and punctuation.
  title('word order', 'engineer, machine learning', /Machine Learning Engineer/i),
  title('word order', 'engineer backend', role('Backend')),
  title('word order', 'developer java', role('\\bJava')),
  title('word order', 'scientist data', /Data Scientist/i),
  title('word order', 'manager, product', /Product Manager/i),
  title('word order', 'Engineer (Senior)', /^Senior .*Engineer\b/i),
  title('word order', 'architect - cloud', /Cloud Architect/i),
  title('word order', 'security, application', /Application Security/i),
  title('word order', 'head of data', /Head of Data/i),

  // Precision traps: words that look alike but mean other roles.
  title('trap', 'engineer', /\bEngineer\b/i),
  title('trap', 'java', /\bJava\b/i),
  title('trap', 'data engineer', /\bData\b.*\b(Engineer|Developer)\b/i),
  title('trap', 'engineering', /\bEngineering\b/i),
  title('trap', 'engineering manager', /Engineering Manager/i),
  title('trap', 'data scientist', /Data Scientist/i),
  title('trap', 'security analyst', /Security Analyst/i),
  title('trap', 'product designer', /Product Designer/i),
  title('trap', 'chief information officer', /Chief Information Officer/i),
  title('trap', 'go engineer', role('\\bGo')),
  title('trap', 'lead developer', /^Lead .*Developer\b/i),
  title('trap', 'senior engineer', /^Senior .*Engineer\b/i),
  title('trap', 'principal engineer', /^Principal .*Engineer\b/i),
  title('trap', 'staff engineer', /^Staff .*Engineer\b/i),
  // Changed in the second round (docs/search-quality.md): a junior role is advertised as Junior,
  // Graduate or Associate (the data's entry-level prefixes); the first round counted "Junior" only.
  title('trap', 'junior developer', /^(Junior|Graduate|Associate) .*Developer\b/i),
  title('trap', 'product analyst', /Product Analyst/i),
  title('trap', 'data analyst', /Data Analyst/i),
  title('trap', 'analytics engineer', /Analytics Engineer/i),
  title('trap', 'test engineer', /\bTest\b.*\b(Engineer|Developer)\b/i),
  title('trap', 'network engineer', /Network Engineer/i),
  title('trap', 'data architect', /Data Architect/i),

  // Titles as they are.
  title('literal', 'technical product manager', /Technical Product Manager/i),
  title('literal', 'cloud architect', /Cloud Architect/i),
  title('literal', 'IT support', /IT Support/i),
  title('literal', 'IT director', /IT Director/i),
  title('literal', 'service desk', /Service Desk/i),
  title('literal', 'salesforce developer', role('Salesforce')),
  title('literal', 'SAP consultant', /SAP Consultant/i),
  title('literal', 'flutter', /Flutter/i),
  title('literal', 'angular developer', role('Angular')),
  title('literal', 'computer vision engineer', /Computer Vision Engineer/i),
  title('literal', 'enterprise architect', /Enterprise Architect/i),
  title('literal', 'head of product', /Head of Product/i),
  title('literal', 'chief architect', /Chief Architect/i),
  title('literal', 'infrastructure engineer', /Infrastructure Engineer/i),
  title('literal', 'Senior Data Engineer', /^Senior .*Data .*(Engineer|Developer)\b/i),

  // Typos: nothing matches as typed.
  title('typo', 'developper', /\bDeveloper\b/i),
  title('typo', 'sofware engineer', role('Software')),
  title('typo', 'pyhton developer', role('Python')),
  title('typo', 'data scienist', /Data Scientist/i),
  title('typo', 'devops enginer', /DevOps Engineer/i),
  title('typo', 'machine lerning engineer', /Machine Learning Engineer/i),
  title('typo', 'architetc', /Architect\b/i),
  title('typo', 'analsyt', /Analyst\b/i),
  title('typo', 'desginer', /Designer\b/i),
  title('typo', 'recat developer', role('React')),
  title('typo', 'product manger', /Product Manager/i),
  title('typo', 'secuirty engineer', role('Security')),
  skills('typo', ['kuberntes'], ['Kubernetes']),
  skills('typo', ['javascipt'], ['JavaScript']),
  skills('typo', ['postgress'], ['PostgreSQL']),
  skills('typo', ['pythn'], ['Python']),
  industry('typo', 'fintec', ['Fintech']),

  // Skills as people name them.
  skills('skill alias', ['JS'], ['JavaScript']),
  skills('skill alias', ['TS'], ['TypeScript']),
  skills('skill alias', ['reactjs'], ['React']),
  skills('skill alias', ['nextjs'], ['Next.js']),
  skills('skill alias', ['sklearn'], ['scikit-learn']),
  skills('skill alias', ['Google Cloud'], ['GCP']),
  skills('skill alias', ['golang'], ['Go']),
  skills('skill alias', ['node'], ['Node.js']),
  skills('skill alias', ['nodejs'], ['Node.js']),
  skills('skill alias', ['dotnet'], ['.NET']),
  skills('skill alias', ['csharp'], ['C#']),
  skills('skill alias', ['Amazon Web Services'], ['AWS']),
  skills('skill alias', ['mongo'], ['MongoDB']),
  skills('skill alias', ['ror'], ['Ruby on Rails']),
  skills('skill alias', ['spring'], ['Spring Boot']),
  skills('skill alias', ['powerbi'], ['Power BI']),
  skills('skill alias', ['cicd'], ['CI/CD']),
  skills('skill alias', ['REST API'], ['REST APIs']),
  skills('skill alias', ['microservice'], ['Microservices']),
  skills('skill alias', ['LLM'], ['LLMs']),
  skills('skill alias', ['large language models'], ['LLMs']),
  skills('skill alias', ['torch'], ['PyTorch']),
  skills('skill alias', ['tensor flow'], ['TensorFlow']),
  skills('skill alias', ['huggingface'], ['Hugging Face']),
  skills('skill alias', ['gh actions'], ['GitHub Actions']),
  skills('skill alias', ['tailwind'], ['Tailwind CSS']),
  skills('skill alias', ['vue'], ['Vue.js']),
  skills('skill alias', ['ab testing'], ['A/B Testing']),
  skills('skill alias', ['pen testing'], ['Penetration Testing']),
  skills('skill alias', ['objective c'], ['Objective-C']),
  skills('skill alias', ['S4HANA'], ['SAP S/4HANA']),
  skills('skill alias', ['o365'], ['Office 365']),
  skills('skill alias', ['elastic'], ['Elasticsearch']),
  skills('skill alias', ['k8s', 'terraform'], ['Kubernetes', 'Terraform']),
  skills('literal', ['PYTHON'], ['Python']),
  skills('literal', ['Spring Boot'], ['Spring Boot']),
  skills('trap', ['java'], ['Java']),
  skills('trap', ['SQL'], ['SQL']),
  skills('trap', ['react'], ['React']),
  skills('trap', ['C++'], ['C++']),
  skills('trap', ['c#'], ['C#']),
  skills('trap', ['go'], ['Go']),
  skills('trap', ['R'], ['R']),

  // Industries.
  industry('literal', 'fintech', ['Fintech']),
  industry('literal', 'FinTech', ['Fintech']),
  industry('spelling', 'fin tech', ['Fintech']),
  industry('spelling', 'healthtech', ['Health Tech']),
  industry('spelling', 'ecommerce', ['E-commerce']),
  industry('abbreviation', 'AI', ['Artificial Intelligence']),
  industry('synonym', 'telecoms', ['Telecommunications']),
  industry('spelling', 'cyber security', ['Cybersecurity']),
  industry('synonym', 'games', ['Gaming']),
  industry('spelling', 'media and entertainment', ['Media & Entertainment']),
  industry('synonym', 'travel', ['Travel & Hospitality']),
  industry('synonym', 'edtech', ['Education']),
  industry('synonym', 'public sector', ['Government']),
  industry('synonym', 'proptech', ['Real Estate']),
  industry('synonym', 'banks', ['Banking']),
  industry('synonym', 'consultancy', ['Consulting']),
  industry('synonym', 'biotechnology', ['Biotech']),
  industry('synonym', 'finance', ['Fintech', 'Banking', 'Insurance']),

  // Added in the third round, after the outsider set: "software" beside a specialty that implies it.
  title('synonym', 'backend software engineer', role('Backend')),
  title('word order', 'Software Engineer, Frontend', role('Frontend')),
  title('abbreviation', 'iOS SWE', role('iOS')),
  title('abbreviation', 'SWE, backend', role('Backend')),
  // Words that name the posting, and titles joined by "or".
  title('literal', 'python jobs', /\bPython\b/i),
  title('literal', 'devops positions', /\bDevOps\b/i),
  title('literal', 'react developer vacancies', role('React')),
  title(
    'synonym',
    'data engineer or data scientist',
    /\bData\b.*\b(Engineer|Developer)\b|\bData Scientist\b/i,
  ),
  // Abbreviations of whole roles: "SDE" is Amazon's Software Development Engineer, no SDET.
  title('abbreviation', 'SDE', role('Software')),
  title('abbreviation', 'MLE', /Machine Learning Engineer/i),
  title('abbreviation', 'FE developer', role('Frontend')),
  title('abbreviation', 'BE engineer', role('Backend')),
  // German compounds of a specialty and a role noun, as DACH job boards write them.
  title('synonym', 'Softwareentwickler (m/w/d)', role('Software')),
  title('synonym', 'Datenanalystin', /Data Analyst/i),
  // Skills written as in a sentence.
  skills('skill alias', ['Python and Django'], ['Python', 'Django']),
  skills('skill alias', ['kubernetes experience'], ['Kubernetes']),
  skills('skill alias', ['AWS certified'], ['AWS']),
  // A place or work arrangement typed before the title (read as the filter, second reading).
  titleAt('word order', 'remote python jobs', { title: /\bPython\b/i, workType: 'Remote' }),
  titleAt('word order', 'London data engineer', {
    title: /\bData\b.*\b(Engineer|Developer)\b/i,
    cities: ['London'],
  }),
  // Role nouns in the languages of the data's countries.
  title('synonym', 'programista java', role('Java')),
  title('synonym', 'développeur python', role('Python')),
  // Internships named as the contract rather than the role noun of their titles.
  title('synonym', 'internship', /\bIntern\b/i),
  title('synonym', 'software engineering intern', /\bSoftware (Engineer|Developer) Intern\b/i),
  // Industries joined by "and" that no industry is named (read part by part, second reading).
  industry('synonym', 'banking and finance', ['Banking', 'Fintech', 'Insurance']),
  industry('synonym', 'retail & ecommerce', ['Retail', 'E-commerce']),
  // Industries named with words that say they are one.
  industry('synonym', 'fintech companies', ['Fintech']),
  industry('synonym', 'the gaming industry', ['Gaming']),

  // Added in the fifth round. Skills named with the tool or part of them people mean (read as the
  // skill their words name, second reading).
  skills('synonym', ['docker compose'], ['Docker']),
  skills('synonym', ['jenkins pipelines'], ['Jenkins']),
  skills('synonym', ['graphql api'], ['GraphQL']),
  skills('synonym', ['rest api design'], ['REST APIs']),
  skills('synonym', ['microservice architecture'], ['Microservices']),
  skills('synonym', ['spring framework'], ['Spring Boot']),
  skills('synonym', ['azure data factory'], ['Azure']),
  // Frameworks and kinds of work the data names by what they are built on.
  skills('skill alias', ['nestjs'], ['Node.js']),
  skills('skill alias', ['RAG'], ['LLMs', 'LangChain', 'Vector Databases']),
  skills('skill alias', ['nosql'], ['MongoDB', 'Redis']),
  title('synonym', 'engineering lead', /Technical Lead/i),
  // Industries named with the kind of business in them (read as the industry their last words name).
  industry('synonym', 'retail banking', ['Banking']),
  industry('synonym', 'online gaming', ['Gaming']),
  industry('synonym', 'enterprise software', ['Software']),
  industry('synonym', 'health insurance', ['Insurance']),
  industry('synonym', 'B2B fintech', ['Fintech']),
  // Job-board titles with the stack in brackets or the team after a dash (read as skills the role
  // lists, or without the team, second reading).
  titleAt('word order', 'Full-Stack Engineer (React/Node)', {
    title: /\bFull Stack\b.*\b(Engineer|Developer)\b/i,
    skills: ['React', 'Node.js'],
  }),
  titleAt('word order', 'DevOps Engineer (AWS, Terraform)', {
    title: /\bDevOps Engineer\b/i,
    skills: ['AWS', 'Terraform'],
  }),
  titleAt('word order', 'Data Engineer (Spark/Databricks)', {
    title: /\bData\b.*\b(Engineer|Developer)\b/i,
    skills: ['Spark', 'Databricks'],
  }),
  // Changed in the seventh round: payments is the business of Fintech companies.
  titleAt('word order', 'Software Engineer - Payments', { title: role('Software'), industries: ['Fintech'] }),
  title('word order', 'Software Engineer - Growth', role('Software')),
  // Two skills joined by "or" or a spaced slash, and frameworks by a short name.
  skills('skill alias', ['Kafka or RabbitMQ'], ['Kafka', 'RabbitMQ']),
  skills('skill alias', ['Power BI / Tableau'], ['Power BI', 'Tableau']),
  skills('skill alias', ['Next'], ['Next.js']),
  skills('skill alias', ['nuxt'], ['Vue.js']),
  // Words of a work arrangement or employment type inside a title (read as those filters).
  titleAt('word order', 'senior remote react developer', {
    title: /\bSenior React (Engineer|Developer)\b/i,
    workType: 'Remote',
  }),
  titleAt('word order', 'contract java developer', { title: role('Java'), employmentType: 'Contract' }),
  titleAt('word order', 'part time data analyst', {
    title: /\bData Analyst\b/i,
    employmentType: 'Part-time',
  }),
  // Words typed to leave out, as search engines take them.
  title('trap', 'senior -lead python', /^(?!.*\bLead\b).*\bSenior\b.*\bPython\b/i),
  title('trap', 'data engineer NOT big', /^(?!.*\bBig\b).*\bData\b.*\b(Engineer|Developer)\b/i),
  // Testers, IT support and other roles the data names another way.
  title('synonym', 'software tester', /\b(QA|Test|SDET)\b/i),
  title('synonym', 'manual tester', /\bQA Analyst\b/i),
  title('synonym', 'QA automation engineer', /\b(Test Automation Engineer|SDET)\b/i),
  title('synonym', 'desktop support', /\b(IT Support|Service Desk)\b/i),
  title('synonym', 'network admin', /\bNetwork Engineer\b/i),
  title('synonym', 'reporting analyst', /\b(Business Intelligence|BI|Data) Analyst\b/i),
  title('synonym', 'DevSecOps engineer', /\b(DevOps|Security) Engineer\b/i),
  // Acronyms of three letters are not read by close spelling: "SAS" is not SAP, "SVP" not SAP.
  { kind: 'trap', args: { skills: ['SAS'] }, means: { nothing: true } },
  title('abbreviation', 'SVP', /\bVP\b/i),
  skills('skill alias', ['IaC'], ['Terraform', 'Ansible']),
  industry('synonym', 'pharmaceutical', ['Biotech']),
  // Job-board titles with the terms of the contract and the employer's industry.
  titleAt('word order', 'DevOps Engineer - 6 month contract - Outside IR35', {
    title: /\bDevOps Engineer\b/i,
    employmentType: 'Contract',
  }),
  titleAt('word order', 'Data Analyst (SQL, Tableau) - Fixed Term 12 months', {
    title: /\bData Analyst\b/i,
    skills: ['SQL', 'Tableau'],
    employmentType: 'Temporary',
  }),
  titleAt('industry', 'Product Manager - Payments (Fintech)', {
    title: /\bProduct Manager\b/i,
    industries: ['Fintech'],
  }),
  titleAt('word order', 'Data Engineer (Python, dbt, Snowflake) | London | £70-85k', {
    title: /\bData\b.*\b(Engineer|Developer)\b/i,
    skills: ['Python', 'dbt', 'Snowflake'],
    cities: ['London'],
  }),
  titleAt('word order', 'Java Developer (London, Manchester)', {
    title: role('Java'),
    cities: ['London', 'Manchester'],
  }),
  titleAt('word order', 'Senior UX/UI Designer - Hybrid (3 days office)', {
    title: /\bSenior (UX|UI) Designer\b/i,
    workType: 'Hybrid',
  }),
  title('word order', 'IT Support Technician - 1st/2nd Line', /\bIT Support\b/i),
  titleAt('word order', 'Data Engineer - Snowflake', {
    title: /\bData\b.*\b(Engineer|Developer)\b/i,
    skills: ['Snowflake'],
  }),
  // Skills as job ads write them: with years of experience, joined, a version written on.
  skills('skill alias', ['experience with React and TypeScript'], ['React', 'TypeScript']),
  skills('skill alias', ['5+ years Python'], ['Python']),
  skills('skill alias', ['HTML5'], ['HTML']),
  // Alternatives as people elide them, and as search engines take them.
  title(
    'word order',
    'senior OR lead python developer',
    /\b(Senior|Lead)\b.*\bPython (Engineer|Developer)\b/i,
  ),
  title('word order', 'python or java developer', /\b(Python|Java) (Engineer|Developer)\b/i),
  title('word order', 'react|vue developer', /\b(React|Vue\.js) (Engineer|Developer)\b/i),
  titleAt('skill alias', 'azure devops engineer', { title: /\bDevOps Engineer\b/i, skills: ['Azure'] }),
  // Practices and kinds of tool named instead of the tools the data lists.
  skills('skill alias', ['Continuous Integration'], ['CI/CD']),
  skills('skill alias', ['TDD'], ['Unit Testing']),
  skills('skill alias', ['containerization'], ['Docker', 'Kubernetes']),
  skills('skill alias', ['version control'], ['Git']),
  skills('skill alias', ['data visualisation'], ['Tableau', 'Power BI', 'Looker']),
  skills('skill alias', ['message queues'], ['Kafka', 'RabbitMQ']),
  // A field of work typed as the title: its people.
  title('synonym', 'data science', /\bData Scien(ce|tist)\b/i),
  title('synonym', 'product management', /\bProduct Manager\b/i),
  title('synonym', 'web development', /\b(Frontend|Full Stack)\b.*\b(Engineer|Developer)\b/i),
  title('synonym', 'software engineering', /\bSoftware Engineer\b/i),
  title('synonym', 'data analytics', /\bData Analyst\b/i),
  title('synonym', 'UX research', /\bUX Researcher\b/i),
  // Titles as German- and Polish-speaking job boards write them.
  title('synonym', 'Datenwissenschaftler', /\bData Scientist\b/i),
  title('synonym', 'Produktmanagerin', /\bProduct Manager\b/i),
  title('synonym', 'Praktikant', /\bIntern\b/i),
  title('synonym', 'IT-Administrator', /\bSystems Administrator\b/i),
  title('synonym', 'Teamleiter Softwareentwicklung', /\b(Technical Lead|Engineering Manager)\b/i),
  title('synonym', 'Analityk danych', /\bData Analyst\b/i),
  title('synonym', 'Dateningenieur', /\bData Engineer\b/i),
  title('synonym', 'Starszy programista Java', /\bSenior\b.*\bJava (Engineer|Developer)\b/i),
  title('synonym', 'Ingénieur logiciel', /\bSoftware (Engineer|Developer)\b/i),
  title('synonym', 'Leiter IT', /\b(IT Director|Head of IT)\b/i),
  // Titles naming the industry of the employer (read as the industry, second reading).
  titleAt('industry', 'fintech java developer', { title: role('Java'), industries: ['Fintech'] }),
  titleAt('industry', 'game developer', { title: /\b(Engineer|Developer)\b/i, industries: ['Gaming'] }),
  titleAt('industry', 'automotive software engineer', {
    title: /\bSoftware Engineer\b/i,
    industries: ['Automotive'],
  }),
  titleAt('industry', 'insurance data analyst', { title: /\bData Analyst\b/i, industries: ['Insurance'] }),
  titleAt('industry', 'London fintech developer', {
    title: /\b(Engineer|Developer)\b/i,
    industries: ['Fintech'],
    cities: ['London'],
  }),
  // A field of work named with the posting: its people.
  title('synonym', 'engineering roles', /\b(Engineer|Engineering|Developer)\b/i),
  title('synonym', 'design jobs', /\bDesign(er)?\b/i),
  title('synonym', 'Design Lead', /\bLead\b.*\bDesigner\b|\bDesign Lead\b/i),
  // Skills typed in one string without a comma, and practices named for the tools.
  skills('skill alias', ['python sql'], ['Python', 'SQL']),
  skills('skill alias', ['React + TypeScript'], ['React', 'TypeScript']),
  skills('skill alias', ['ux research'], ['User Research']),
  skills('skill alias', ['deep learning'], ['PyTorch', 'TensorFlow']),
  skills('skill alias', ['terraform cloud'], ['Terraform']),
  // Trainees and graduate schemes: the entry-level titles of the data.
  title('synonym', 'apprentice developer', /\b(Junior|Graduate|Associate)\b.*\bDeveloper\b/i),
  title('synonym', 'grad software engineer', /\bGraduate\b.*\bSoftware (Engineer|Developer)\b/i),
  title('synonym', 'summer internship', /\bIntern\b/i),
  titleAt('synonym', 'contractor devops', { title: /\bDevOps\b/i, employmentType: 'Contract' }),
  // Words that say someone is hired, and the years of experience asked for.
  title('synonym', 'react developer wanted', role('React')),
  title('synonym', 'python developer (5+ years)', role('Python')),
  // Systems named by their kind, and support lines alone.
  title('synonym', 'erp consultant', /\bSAP Consultant\b/i),
  title('synonym', 'crm developer', /\bSalesforce (Developer|Engineer)\b/i),
  title('synonym', '3rd line', /\b(IT Support|Service Desk)\b/i),
  // A Head where a Director is hiring, as recruiters take the two.
  title('synonym', 'Head of Machine Learning', /\b(Head|Director) of Machine Learning\b/i),
  // A role noun misspelt beside a specialty: either role noun, as spelt right.
  title('typo', 'java enginer', role('Java')),
  // Industries named by a kind of business the data files under a wider one.
  industry('industry', 'payments', ['Fintech']),
  industry('industry', 'marketplace', ['E-commerce']),
  industry('industry', 'streaming', ['Media & Entertainment']),
  industry('industry', 'wealth management', ['Fintech', 'Banking']),
  // One word naming a role after a slash shares the words before the other.
  title('word order', 'Software Developer / Engineer', /\bSoftware (Engineer|Developer)\b/i),
  // Words joined by "&": either, when no title has both.
  title('word order', 'Head of Data & Analytics', /\bHead of (Data|Analytics)\b/i),
  // Job-board titles whose first part holds a word no title has, beside skills in later parts.
  titleAt('job board', 'Cloud DevOps Engineer - AWS - SC Cleared', {
    title: /\bDevOps Engineer\b/i,
    skills: ['AWS'],
  }),
  // Added in the eighth round. A language beside the field its roles are in: those roles, not the
  // full-stack ones.
  title('job board', 'python backend', /^(?!.*Full Stack).*\bPython (Engineer|Developer)\b/i),
  title('job board', 'golang backend engineer', /^(?!.*Full Stack).*\bGo (Engineer|Developer)\b/i),
  title('job board', 'Backend Developer (Java)', /^(?!.*Full Stack).*\bJava (Engineer|Developer)\b/i),
  title('abbreviation', 'VPE', /\bVP of Engineering\b/i),
  // The same beside a place, or beside a skill in a bracket.
  titleAt('job board', 'python backend - London', {
    title: /^(?!.*Full Stack).*\bPython (Engineer|Developer)\b/i,
    cities: ['London'],
  }),
  titleAt('job board', 'Backend Python Developer (Django)', {
    title: /^(?!.*Full Stack).*\bPython (Engineer|Developer)\b/i,
    skills: ['Django'],
  }),
  titleAt('job board', 'remote python backend', {
    title: /^(?!.*Full Stack).*\bPython (Engineer|Developer)\b/i,
    workType: 'Remote',
  }),
  // Skills named like places (Dax in France, Ivory Coast and Congo, Cypress in California).
  titleAt('job board', 'Power BI Developer (DAX)', { title: /\bBI Developer\b/i, skills: ['DAX'] }),
  titleAt('job board', 'DevOps Engineer (CI/CD)', { title: /\bDevOps Engineer\b/i, skills: ['CI/CD'] }),
  // Languages in brackets joined by "or", and two words spelt apart left out together.
  title(
    'job board',
    'Backend Engineer (Python or Go)',
    /^(?!.*Full Stack).*\b(Python|Go) (Engineer|Developer)\b/i,
  ),
  title(
    'word order',
    'python developer NOT full stack',
    /^(?!.*Full Stack).*\bPython (Engineer|Developer)\b/i,
  ),
  // A misspelt job-board title with a place: the place stays a place.
  titleAt('typo', 'Data Enginer - London', {
    title: /\bData\b.*\b(Engineer|Developer)\b/i,
    cities: ['London'],
  }),
  titleAt('typo', 'Full Stack Developer (.NET/React) - Leeds', {
    title: /\bFull Stack\b.*\b(Engineer|Developer)\b/i,
    skills: ['.NET', 'React'],
    cities: ['Leeds'],
  }),
  // A library of one platform: that platform's roles.
  skills('skill alias', ['Entity Framework'], ['.NET']),
  titleAt('job board', 'QA Automation Engineer (Cypress)', {
    title: /\b(Test Automation Engineer|SDET)\b/i,
    skills: ['Cypress'],
  }),
  // Added in the ninth round. Certifications name the skill they certify.
  titleAt('job board', 'Network Engineer CCNA', { title: /\bNetwork Engineer\b/i, skills: ['Cisco'] }),
  skills('skill alias', ['CKA'], ['Kubernetes']),
  skills('skill alias', ['AZ-104'], ['Azure']),
  // "Software" is implied by a language roles are titled by: its developers, and the Software
  // Engineers listing it.
  titleAt('job board', 'Software Engineer (Python)', {
    title: /\bSoftware\b.*\bEngineer\b|\bPython (Engineer|Developer)\b/i,
    skills: ['Python'],
  }),
  titleAt('job board', 'Senior Software Engineer - Go', {
    title: /^Senior (Software\b.*\bEngineer\b|Go (Engineer|Developer)\b)/i,
    skills: ['Go'],
  }),
  // A stack's name is the roles that build with it: MERN and MEAN are JavaScript full stack, LAMP
  // PHP; a framework is its language ("Symfony" PHP, "Blazor" .NET).
  title('synonym', 'MERN stack developer', /\bFull Stack (Developer|Engineer)\b/i),
  title('synonym', 'LAMP developer', role('PHP')),
  skills('skill alias', ['Symfony'], ['PHP']),
  titleAt('skill alias', 'Blazor developer', { title: /\b(Engineer|Developer)\b/i, skills: ['.NET'] }),
  // "Tech" as an industry: the businesses that make software, not every business with a website.
  industry('industry', 'tech', ['Software', 'SaaS', 'Artificial Intelligence', 'Cybersecurity']),
  industry('industry', 'adtech', ['Media & Entertainment']),
  // A job-board title's parts: one naming an industry, another a skill.
  titleAt('job board', 'Data Engineer - Healthcare (Python)', {
    title: /\bData\b.*\b(Engineer|Developer)\b/i,
    industries: ['Health Tech'],
    skills: ['Python'],
  }),
  // Products under their other names.
  skills('skill alias', ['MS Office'], ['Office 365']),
  skills('skill alias', ['Azure AD'], ['Active Directory']),
  // Words shortened as in notes and sign-offs.
  title('abbreviation', 'Sr. Eng. Mgr.', /^Senior Engineering Manager\b/i),
  title('abbreviation', 'Data Sci', /\bData Scien(tist|ce)\b/i),
  title('abbreviation', 'Dir of Eng', /\bDirector of (\w+ )?Engineering\b/i),
  // Later parts naming the specialty that "Software" in the first stands for.
  title(
    'job board',
    'Staff Software Engineer, Platform (Go)',
    /^Staff\b.*\b(Platform|Go) (Engineer|Developer)\b/i,
  ),
  titleAt('job board', 'Software Engineer - Payments (Kotlin)', {
    title: /\b(Kotlin (Engineer|Developer)|Software Engineer)\b/i,
    industries: ['Fintech'],
    skills: ['Kotlin'],
  }),
  // Another name of the vocabulary misspelt: the index holds only what it means.
  industry('typo', 'helthcare', ['Health Tech']),
  skills('typo', ['sklern'], ['scikit-learn']),
  // Adjectives of job ads and words of a sentence name no role.
  title('word order', 'Experienced Java Developer', role('Java')),
  titleAt('word order', 'engineer who knows kubernetes', {
    title: /\b(Engineer|Developer)\b/i,
    skills: ['Kubernetes'],
  }),
  // Roles under the names other employers give them.
  title('synonym', 'Project Manager', /\bDelivery Manager\b/i),
  title('abbreviation', 'APM', /\bAssociate Product Manager\b/i),
  title('synonym', 'Visual Designer', /\bUI Designer\b/i),
  title('synonym', 'Insights Analyst', /\b(Business Intelligence|Data) Analyst\b/i),
  // A field of work after a rank and a specialty, which the data's leaders' titles leave out.
  title('word order', 'Head of Platform Engineering', /^Head of Platform$/i),
  title('word order', 'Director of Product Management', /^Director of Product$/i),
  // A library or tool of one platform the data does not list: that platform.
  skills('skill alias', ['Hibernate'], ['Java']),
  skills('skill alias', ['jQuery'], ['JavaScript']),
  skills('skill alias', ['Sass/SCSS'], ['CSS']),
  // A Business Analyst is no Business Intelligence Analyst; the data has none.
  { kind: 'trap', args: { title: 'business analyst' }, means: { nothing: true } },
  // The top of a field under another name.
  title('synonym', 'Chief Data Scientist', /\b(Head of Data Science|Chief Data Officer)\b/i),
  // A rank with "+": it and the ranks above it.
  title('synonym', 'Staff+ Engineer', /\b(Staff|Principal)\b.*\bEngineer\b/i),
  title(
    'synonym',
    'Senior+ backend engineer',
    /^(Senior|Lead|Staff|Principal) Backend (Engineer|Developer)\b/i,
  ),
  // A skill named exactly as the data names it is that skill, not the words of its name: no Data
  // Analyst lists Power BI, and those listing Looker ("BI") are not what was asked.
  { kind: 'trap', args: { title: 'Data Analyst', skills: ['Power BI'] }, means: { nothing: true } },
];

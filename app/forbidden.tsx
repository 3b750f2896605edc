import Link from "@/components/ui/link";

export default function Forbidden() {
  return (
    <main className="grid min-h-[60vh] place-items-center px-4 text-center">
      <div>
        <p className="text-sm font-semibold text-indigo-600">403</p>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight">Your role cannot open this page</h1>
        <p className="mt-2 text-sm text-zinc-600">Ask an admin for a role that includes it.</p>
        <Link href="/" className="mt-6 inline-block text-sm font-medium text-indigo-600 hover:underline">
          Back to the overview
        </Link>
      </div>
    </main>
  );
}
